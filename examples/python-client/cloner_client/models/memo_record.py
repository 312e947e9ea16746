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

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cloned_from import ClonedFrom
    from ..models.memo_record_lists import MemoRecordLists


T = TypeVar("T", bound="MemoRecord")


@_attrs_define
class MemoRecord:
    """
    Attributes:
        field_entity (Literal['Memo']):
        field_id (int):
        field_version (int):
        attachments (list[int]): The first 1000 `_id`s; `_lists` tells of the rest.
        create_date (datetime.datetime):
        item_data (int | None):
        note (int | None):
        tags (list[int]): The first 1000 `_id`s; `_lists` tells of the rest.
        text (None | str):
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
        field_lists (MemoRecordLists | Unset): Present when a to-many links more than 1000 objects: per such
            relationship, how many, and where they all are.
    """

    field_entity: Literal["Memo"]
    field_id: int
    field_version: int
    attachments: list[int]
    create_date: datetime.datetime
    item_data: int | None
    note: int | None
    tags: list[int]
    text: None | str
    field_cloned_from: ClonedFrom | Unset = UNSET
    field_lists: MemoRecordLists | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        attachments = self.attachments

        create_date = self.create_date.isoformat()

        item_data: int | None
        item_data = self.item_data

        note: int | None
        note = self.note

        tags = self.tags

        text: None | str
        text = self.text

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
                "attachments": attachments,
                "createDate": create_date,
                "itemData": item_data,
                "note": note,
                "tags": tags,
                "text": text,
            }
        )
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from
        if field_lists is not UNSET:
            field_dict["_lists"] = field_lists

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cloned_from import ClonedFrom
        from ..models.memo_record_lists import MemoRecordLists

        d = dict(src_dict)
        field_entity = cast(Literal["Memo"], d.pop("_entity"))
        if field_entity != "Memo":
            raise ValueError(f"_entity must match const 'Memo', got '{field_entity}'")

        field_id = d.pop("_id")

        field_version = d.pop("_version")

        attachments = cast(list[int], d.pop("attachments"))

        create_date = datetime.datetime.fromisoformat(d.pop("createDate"))

        def _parse_item_data(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        item_data = _parse_item_data(d.pop("itemData"))

        def _parse_note(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        note = _parse_note(d.pop("note"))

        tags = cast(list[int], d.pop("tags"))

        def _parse_text(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        text = _parse_text(d.pop("text"))

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        _field_lists = d.pop("_lists", UNSET)
        field_lists: MemoRecordLists | Unset
        if isinstance(_field_lists, Unset):
            field_lists = UNSET
        else:
            field_lists = MemoRecordLists.from_dict(_field_lists)

        memo_record = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            attachments=attachments,
            create_date=create_date,
            item_data=item_data,
            note=note,
            tags=tags,
            text=text,
            field_cloned_from=field_cloned_from,
            field_lists=field_lists,
        )

        memo_record.additional_properties = d
        return memo_record

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
