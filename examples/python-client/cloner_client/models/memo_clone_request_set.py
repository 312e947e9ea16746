from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MemoCloneRequestSet")


@_attrs_define
class MemoCloneRequestSet:
    """
    Attributes:
        attachments (list[int] | Unset):
        create_date (datetime.datetime | Unset):
        item_data (int | None | Unset):
        note (int | None | Unset):
        tags (list[int] | Unset):
        text (None | str | Unset):
    """

    attachments: list[int] | Unset = UNSET
    create_date: datetime.datetime | Unset = UNSET
    item_data: int | None | Unset = UNSET
    note: int | None | Unset = UNSET
    tags: list[int] | Unset = UNSET
    text: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        attachments: list[int] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = self.attachments

        create_date: str | Unset = UNSET
        if not isinstance(self.create_date, Unset):
            create_date = self.create_date.isoformat()

        item_data: int | None | Unset
        if isinstance(self.item_data, Unset):
            item_data = UNSET
        else:
            item_data = self.item_data

        note: int | None | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        tags: list[int] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        text: None | str | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        else:
            text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if create_date is not UNSET:
            field_dict["createDate"] = create_date
        if item_data is not UNSET:
            field_dict["itemData"] = item_data
        if note is not UNSET:
            field_dict["note"] = note
        if tags is not UNSET:
            field_dict["tags"] = tags
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attachments = cast(list[int], d.pop("attachments", UNSET))

        _create_date = d.pop("createDate", UNSET)
        create_date: datetime.datetime | Unset
        if isinstance(_create_date, Unset):
            create_date = UNSET
        else:
            create_date = datetime.datetime.fromisoformat(_create_date)

        def _parse_item_data(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        item_data = _parse_item_data(d.pop("itemData", UNSET))

        def _parse_note(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        tags = cast(list[int], d.pop("tags", UNSET))

        def _parse_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text = _parse_text(d.pop("text", UNSET))

        memo_clone_request_set = cls(
            attachments=attachments,
            create_date=create_date,
            item_data=item_data,
            note=note,
            tags=tags,
            text=text,
        )

        return memo_clone_request_set
