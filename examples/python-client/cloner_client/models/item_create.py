from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.item_data_create import ItemDataCreate
    from ..models.note_create import NoteCreate


T = TypeVar("T", bound="ItemCreate")


@_attrs_define
class ItemCreate:
    """
    Attributes:
        field_entity (Literal['Item'] | Unset):
        item_datas (list[int | ItemDataCreate] | Unset):
        name (None | str | Unset):
        note (int | None | NoteCreate | Unset):
        note_id (None | Unset | UUID):
    """

    field_entity: Literal["Item"] | Unset = UNSET
    item_datas: list[int | ItemDataCreate] | Unset = UNSET
    name: None | str | Unset = UNSET
    note: int | None | NoteCreate | Unset = UNSET
    note_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.item_data_create import ItemDataCreate
        from ..models.note_create import NoteCreate

        field_entity = self.field_entity

        item_datas: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.item_datas, Unset):
            item_datas = []
            for item_datas_item_data in self.item_datas:
                item_datas_item: dict[str, Any] | int
                if isinstance(item_datas_item_data, ItemDataCreate):
                    item_datas_item = item_datas_item_data.to_dict()
                else:
                    item_datas_item = item_datas_item_data
                item_datas.append(item_datas_item)

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        note: dict[str, Any] | int | None | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        elif isinstance(self.note, NoteCreate):
            note = self.note.to_dict()
        else:
            note = self.note

        note_id: None | str | Unset
        if isinstance(self.note_id, Unset):
            note_id = UNSET
        elif isinstance(self.note_id, UUID):
            note_id = str(self.note_id)
        else:
            note_id = self.note_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if item_datas is not UNSET:
            field_dict["itemDatas"] = item_datas
        if name is not UNSET:
            field_dict["name"] = name
        if note is not UNSET:
            field_dict["note"] = note
        if note_id is not UNSET:
            field_dict["noteID"] = note_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.item_data_create import ItemDataCreate
        from ..models.note_create import NoteCreate

        d = dict(src_dict)
        field_entity = cast(Literal["Item"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Item" and not isinstance(field_entity, Unset):
            raise ValueError(f"_entity must match const 'Item', got '{field_entity}'")

        _item_datas = d.pop("itemDatas", UNSET)
        item_datas: list[int | ItemDataCreate] | Unset = UNSET
        if _item_datas is not UNSET:
            item_datas = []
            for item_datas_item_data in _item_datas:

                def _parse_item_datas_item(data: object) -> int | ItemDataCreate:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        item_datas_item_type_1 = ItemDataCreate.from_dict(data)

                        return item_datas_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | ItemDataCreate, data)

                item_datas_item = _parse_item_datas_item(item_datas_item_data)

                item_datas.append(item_datas_item)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_note(data: object) -> int | None | NoteCreate | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                note_type_1 = NoteCreate.from_dict(data)

                return note_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | None | NoteCreate | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        def _parse_note_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                note_id_type_0 = UUID(data)

                return note_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        note_id = _parse_note_id(d.pop("noteID", UNSET))

        item_create = cls(
            field_entity=field_entity,
            item_datas=item_datas,
            name=name,
            note=note,
            note_id=note_id,
        )

        return item_create
