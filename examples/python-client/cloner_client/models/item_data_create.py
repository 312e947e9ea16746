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

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.item_create import ItemCreate
    from ..models.memo_create import MemoCreate


T = TypeVar("T", bound="ItemDataCreate")


@_attrs_define
class ItemDataCreate:
    """
    Attributes:
        create_date (datetime.datetime):
        field_entity (Literal['ItemData'] | Unset):
        amount (None | str | Unset): An exact decimal, its digits in a string (at most 38 significant ones); a JSON
            number is accepted on input.
        item (int | ItemCreate | None | Unset):
        memo (int | MemoCreate | None | Unset):
        value (float | Unset):
    """

    create_date: datetime.datetime
    field_entity: Literal["ItemData"] | Unset = UNSET
    amount: None | str | Unset = UNSET
    item: int | ItemCreate | None | Unset = UNSET
    memo: int | MemoCreate | None | Unset = UNSET
    value: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.item_create import ItemCreate
        from ..models.memo_create import MemoCreate

        create_date = self.create_date.isoformat()

        field_entity = self.field_entity

        amount: None | str | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        item: dict[str, Any] | int | None | Unset
        if isinstance(self.item, Unset):
            item = UNSET
        elif isinstance(self.item, ItemCreate):
            item = self.item.to_dict()
        else:
            item = self.item

        memo: dict[str, Any] | int | None | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        elif isinstance(self.memo, MemoCreate):
            memo = self.memo.to_dict()
        else:
            memo = self.memo

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createDate": create_date,
            }
        )
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if amount is not UNSET:
            field_dict["amount"] = amount
        if item is not UNSET:
            field_dict["item"] = item
        if memo is not UNSET:
            field_dict["memo"] = memo
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.item_create import ItemCreate
        from ..models.memo_create import MemoCreate

        d = dict(src_dict)
        create_date = datetime.datetime.fromisoformat(d.pop("createDate"))

        field_entity = cast(Literal["ItemData"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "ItemData" and not isinstance(field_entity, Unset):
            raise ValueError(
                f"_entity must match const 'ItemData', got '{field_entity}'"
            )

        def _parse_amount(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_item(data: object) -> int | ItemCreate | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                item_type_1 = ItemCreate.from_dict(data)

                return item_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | ItemCreate | None | Unset, data)

        item = _parse_item(d.pop("item", UNSET))

        def _parse_memo(data: object) -> int | MemoCreate | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                memo_type_1 = MemoCreate.from_dict(data)

                return memo_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | MemoCreate | None | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        value = d.pop("value", UNSET)

        item_data_create = cls(
            create_date=create_date,
            field_entity=field_entity,
            amount=amount,
            item=item,
            memo=memo,
            value=value,
        )

        return item_data_create
