from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ItemCloneRequestSet")


@_attrs_define
class ItemCloneRequestSet:
    """
    Attributes:
        item_datas (list[int] | Unset):
        name (None | str | Unset):
        note (int | None | Unset):
        note_id (None | Unset | UUID):
    """

    item_datas: list[int] | Unset = UNSET
    name: None | str | Unset = UNSET
    note: int | None | Unset = UNSET
    note_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        item_datas: list[int] | Unset = UNSET
        if not isinstance(self.item_datas, Unset):
            item_datas = self.item_datas

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        note: int | None | Unset
        if isinstance(self.note, Unset):
            note = UNSET
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
        d = dict(src_dict)
        item_datas = cast(list[int], d.pop("itemDatas", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_note(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        def _parse_note_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                note_id_type_0_type_0 = UUID(data)

                return note_id_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        note_id = _parse_note_id(d.pop("noteID", UNSET))

        item_clone_request_set = cls(
            item_datas=item_datas,
            name=name,
            note=note,
            note_id=note_id,
        )

        return item_clone_request_set
