from __future__ import annotations

import datetime
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
    from ..models.item_create import ItemCreate
    from ..models.memo_create import MemoCreate
    from ..models.note_create import NoteCreate
    from ..models.note_description_create import NoteDescriptionCreate


T = TypeVar("T", bound="NoteUpdate")


@_attrs_define
class NoteUpdate:
    """
    Attributes:
        field_entity (Literal['Note'] | Unset):
        field_id (int | Unset):
        field_version (int | Unset):
        create_date (datetime.datetime | Unset):
        data (None | str | Unset):
        id (UUID | Unset):
        index (int | Unset):
        is_pinned (bool | Unset):
        items (list[int | ItemCreate] | Unset):
        memos (list[int | MemoCreate] | Unset):
        name (None | str | Unset):
        note_description (int | None | NoteDescriptionCreate | Unset):
        settings (Any | Unset): Any JSON value, stored as written.
        share_link (None | str | Unset):
        template (int | None | NoteCreate | Unset):
    """

    field_entity: Literal["Note"] | Unset = UNSET
    field_id: int | Unset = UNSET
    field_version: int | Unset = UNSET
    create_date: datetime.datetime | Unset = UNSET
    data: None | str | Unset = UNSET
    id: UUID | Unset = UNSET
    index: int | Unset = UNSET
    is_pinned: bool | Unset = UNSET
    items: list[int | ItemCreate] | Unset = UNSET
    memos: list[int | MemoCreate] | Unset = UNSET
    name: None | str | Unset = UNSET
    note_description: int | None | NoteDescriptionCreate | Unset = UNSET
    settings: Any | Unset = UNSET
    share_link: None | str | Unset = UNSET
    template: int | None | NoteCreate | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.item_create import ItemCreate
        from ..models.memo_create import MemoCreate
        from ..models.note_create import NoteCreate
        from ..models.note_description_create import NoteDescriptionCreate

        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        create_date: str | Unset = UNSET
        if not isinstance(self.create_date, Unset):
            create_date = self.create_date.isoformat()

        data: None | str | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        else:
            data = self.data

        id: str | Unset = UNSET
        if not isinstance(self.id, Unset):
            id = str(self.id)

        index = self.index

        is_pinned = self.is_pinned

        items: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.items, Unset):
            items = []
            for items_item_data in self.items:
                items_item: dict[str, Any] | int
                if isinstance(items_item_data, ItemCreate):
                    items_item = items_item_data.to_dict()
                else:
                    items_item = items_item_data
                items.append(items_item)

        memos: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.memos, Unset):
            memos = []
            for memos_item_data in self.memos:
                memos_item: dict[str, Any] | int
                if isinstance(memos_item_data, MemoCreate):
                    memos_item = memos_item_data.to_dict()
                else:
                    memos_item = memos_item_data
                memos.append(memos_item)

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        note_description: dict[str, Any] | int | None | Unset
        if isinstance(self.note_description, Unset):
            note_description = UNSET
        elif isinstance(self.note_description, NoteDescriptionCreate):
            note_description = self.note_description.to_dict()
        else:
            note_description = self.note_description

        settings = self.settings

        share_link: None | str | Unset
        if isinstance(self.share_link, Unset):
            share_link = UNSET
        else:
            share_link = self.share_link

        template: dict[str, Any] | int | None | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        elif isinstance(self.template, NoteCreate):
            template = self.template.to_dict()
        else:
            template = self.template

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if field_version is not UNSET:
            field_dict["_version"] = field_version
        if create_date is not UNSET:
            field_dict["createDate"] = create_date
        if data is not UNSET:
            field_dict["data"] = data
        if id is not UNSET:
            field_dict["id"] = id
        if index is not UNSET:
            field_dict["index"] = index
        if is_pinned is not UNSET:
            field_dict["isPinned"] = is_pinned
        if items is not UNSET:
            field_dict["items"] = items
        if memos is not UNSET:
            field_dict["memos"] = memos
        if name is not UNSET:
            field_dict["name"] = name
        if note_description is not UNSET:
            field_dict["noteDescription"] = note_description
        if settings is not UNSET:
            field_dict["settings"] = settings
        if share_link is not UNSET:
            field_dict["shareLink"] = share_link
        if template is not UNSET:
            field_dict["template"] = template

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.item_create import ItemCreate
        from ..models.memo_create import MemoCreate
        from ..models.note_create import NoteCreate
        from ..models.note_description_create import NoteDescriptionCreate

        d = dict(src_dict)
        field_entity = cast(Literal["Note"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Note" and not isinstance(field_entity, Unset):
            raise ValueError(f"_entity must match const 'Note', got '{field_entity}'")

        field_id = d.pop("_id", UNSET)

        field_version = d.pop("_version", UNSET)

        _create_date = d.pop("createDate", UNSET)
        create_date: datetime.datetime | Unset
        if isinstance(_create_date, Unset):
            create_date = UNSET
        else:
            create_date = datetime.datetime.fromisoformat(_create_date)

        def _parse_data(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        data = _parse_data(d.pop("data", UNSET))

        _id = d.pop("id", UNSET)
        id: UUID | Unset
        if isinstance(_id, Unset):
            id = UNSET
        else:
            id = UUID(_id)

        index = d.pop("index", UNSET)

        is_pinned = d.pop("isPinned", UNSET)

        _items = d.pop("items", UNSET)
        items: list[int | ItemCreate] | Unset = UNSET
        if _items is not UNSET:
            items = []
            for items_item_data in _items:

                def _parse_items_item(data: object) -> int | ItemCreate:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        items_item_type_1 = ItemCreate.from_dict(data)

                        return items_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | ItemCreate, data)

                items_item = _parse_items_item(items_item_data)

                items.append(items_item)

        _memos = d.pop("memos", UNSET)
        memos: list[int | MemoCreate] | Unset = UNSET
        if _memos is not UNSET:
            memos = []
            for memos_item_data in _memos:

                def _parse_memos_item(data: object) -> int | MemoCreate:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        memos_item_type_1 = MemoCreate.from_dict(data)

                        return memos_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | MemoCreate, data)

                memos_item = _parse_memos_item(memos_item_data)

                memos.append(memos_item)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_note_description(
            data: object,
        ) -> int | None | NoteDescriptionCreate | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                note_description_type_1 = NoteDescriptionCreate.from_dict(data)

                return note_description_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | None | NoteDescriptionCreate | Unset, data)

        note_description = _parse_note_description(d.pop("noteDescription", UNSET))

        settings = d.pop("settings", UNSET)

        def _parse_share_link(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        share_link = _parse_share_link(d.pop("shareLink", UNSET))

        def _parse_template(data: object) -> int | None | NoteCreate | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                template_type_1 = NoteCreate.from_dict(data)

                return template_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | None | NoteCreate | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        note_update = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            create_date=create_date,
            data=data,
            id=id,
            index=index,
            is_pinned=is_pinned,
            items=items,
            memos=memos,
            name=name,
            note_description=note_description,
            settings=settings,
            share_link=share_link,
            template=template,
        )

        return note_update
