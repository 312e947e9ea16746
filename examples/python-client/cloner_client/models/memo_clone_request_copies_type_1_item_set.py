from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MemoCloneRequestCopiesType1ItemSet")


@_attrs_define
class MemoCloneRequestCopiesType1ItemSet:
    """
    Attributes:
        create_date (datetime.datetime | Unset):
        item_data (int | None | Unset):
        note (int | None | Unset):
        text (None | str | Unset):
    """

    create_date: datetime.datetime | Unset = UNSET
    item_data: int | None | Unset = UNSET
    note: int | None | Unset = UNSET
    text: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        text: None | str | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        else:
            text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if create_date is not UNSET:
            field_dict["createDate"] = create_date
        if item_data is not UNSET:
            field_dict["itemData"] = item_data
        if note is not UNSET:
            field_dict["note"] = note
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
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

        def _parse_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text = _parse_text(d.pop("text", UNSET))

        memo_clone_request_copies_type_1_item_set = cls(
            create_date=create_date,
            item_data=item_data,
            note=note,
            text=text,
        )

        return memo_clone_request_copies_type_1_item_set
