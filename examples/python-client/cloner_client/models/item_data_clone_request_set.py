from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ItemDataCloneRequestSet")


@_attrs_define
class ItemDataCloneRequestSet:
    """
    Attributes:
        amount (None | str | Unset):
        create_date (datetime.datetime | Unset):
        item (int | None | Unset):
        memo (int | None | Unset):
        value (float | Unset):
    """

    amount: None | str | Unset = UNSET
    create_date: datetime.datetime | Unset = UNSET
    item: int | None | Unset = UNSET
    memo: int | None | Unset = UNSET
    value: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount: None | str | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        create_date: str | Unset = UNSET
        if not isinstance(self.create_date, Unset):
            create_date = self.create_date.isoformat()

        item: int | None | Unset
        if isinstance(self.item, Unset):
            item = UNSET
        else:
            item = self.item

        memo: int | None | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount
        if create_date is not UNSET:
            field_dict["createDate"] = create_date
        if item is not UNSET:
            field_dict["item"] = item
        if memo is not UNSET:
            field_dict["memo"] = memo
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_amount(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        _create_date = d.pop("createDate", UNSET)
        create_date: datetime.datetime | Unset
        if isinstance(_create_date, Unset):
            create_date = UNSET
        else:
            create_date = datetime.datetime.fromisoformat(_create_date)

        def _parse_item(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        item = _parse_item(d.pop("item", UNSET))

        def _parse_memo(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        value = d.pop("value", UNSET)

        item_data_clone_request_set = cls(
            amount=amount,
            create_date=create_date,
            item=item,
            memo=memo,
            value=value,
        )

        return item_data_clone_request_set
