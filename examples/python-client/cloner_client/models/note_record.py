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
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cloned_from import ClonedFrom
    from ..models.note_record_blobs import NoteRecordBlobs
    from ..models.note_record_lists import NoteRecordLists


T = TypeVar("T", bound="NoteRecord")


@_attrs_define
class NoteRecord:
    """
    Attributes:
        field_entity (Literal['Note']):
        field_id (int):
        field_version (int):
        create_date (datetime.datetime):
        data (None | str): Base64; null when past the answer's `maxInlineBinaryBytes`, with `_blobs` giving its size and
            route.
        id (UUID):
        index (int):
        is_pinned (bool):
        items (list[int]): The first 1000 `_id`s; `_lists` tells of the rest.
        memos (list[int]): The first 1000 `_id`s; `_lists` tells of the rest.
        name (None | str):
        note_description (int | None):
        settings (Any): Any JSON value, stored as written.
        share_link (None | str):
        template (int | None):
        field_blobs (NoteRecordBlobs | Unset): Present when binary values were left out of the answer (their members
            null): past `maxInlineBinaryBytes`, counted in record order. Per such attribute, its size and route.
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
        field_lists (NoteRecordLists | Unset): Present when a to-many links more than 1000 objects: per such
            relationship, how many, and where they all are.
    """

    field_entity: Literal["Note"]
    field_id: int
    field_version: int
    create_date: datetime.datetime
    data: None | str
    id: UUID
    index: int
    is_pinned: bool
    items: list[int]
    memos: list[int]
    name: None | str
    note_description: int | None
    settings: Any
    share_link: None | str
    template: int | None
    field_blobs: NoteRecordBlobs | Unset = UNSET
    field_cloned_from: ClonedFrom | Unset = UNSET
    field_lists: NoteRecordLists | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        create_date = self.create_date.isoformat()

        data: None | str
        data = self.data

        id = str(self.id)

        index = self.index

        is_pinned = self.is_pinned

        items = self.items

        memos = self.memos

        name: None | str
        name = self.name

        note_description: int | None
        note_description = self.note_description

        settings = self.settings

        share_link: None | str
        share_link = self.share_link

        template: int | None
        template = self.template

        field_blobs: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_blobs, Unset):
            field_blobs = self.field_blobs.to_dict()

        field_cloned_from: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_cloned_from, Unset):
            field_cloned_from = self.field_cloned_from.to_dict()

        field_lists: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_lists, Unset):
            field_lists = self.field_lists.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_entity": field_entity,
                "_id": field_id,
                "_version": field_version,
                "createDate": create_date,
                "data": data,
                "id": id,
                "index": index,
                "isPinned": is_pinned,
                "items": items,
                "memos": memos,
                "name": name,
                "noteDescription": note_description,
                "settings": settings,
                "shareLink": share_link,
                "template": template,
            }
        )
        if field_blobs is not UNSET:
            field_dict["_blobs"] = field_blobs
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from
        if field_lists is not UNSET:
            field_dict["_lists"] = field_lists

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cloned_from import ClonedFrom
        from ..models.note_record_blobs import NoteRecordBlobs
        from ..models.note_record_lists import NoteRecordLists

        d = dict(src_dict)
        field_entity = cast(Literal["Note"], d.pop("_entity"))
        if field_entity != "Note":
            raise ValueError(f"_entity must match const 'Note', got '{field_entity}'")

        field_id = d.pop("_id")

        field_version = d.pop("_version")

        create_date = datetime.datetime.fromisoformat(d.pop("createDate"))

        def _parse_data(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        data = _parse_data(d.pop("data"))

        id = UUID(d.pop("id"))

        index = d.pop("index")

        is_pinned = d.pop("isPinned")

        items = cast(list[int], d.pop("items"))

        memos = cast(list[int], d.pop("memos"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_note_description(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        note_description = _parse_note_description(d.pop("noteDescription"))

        settings = d.pop("settings")

        def _parse_share_link(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        share_link = _parse_share_link(d.pop("shareLink"))

        def _parse_template(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        template = _parse_template(d.pop("template"))

        _field_blobs = d.pop("_blobs", UNSET)
        field_blobs: NoteRecordBlobs | Unset
        if isinstance(_field_blobs, Unset):
            field_blobs = UNSET
        else:
            field_blobs = NoteRecordBlobs.from_dict(_field_blobs)

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        _field_lists = d.pop("_lists", UNSET)
        field_lists: NoteRecordLists | Unset
        if isinstance(_field_lists, Unset):
            field_lists = UNSET
        else:
            field_lists = NoteRecordLists.from_dict(_field_lists)

        note_record = cls(
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
            field_blobs=field_blobs,
            field_cloned_from=field_cloned_from,
            field_lists=field_lists,
        )

        note_record.additional_properties = d
        return note_record

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
