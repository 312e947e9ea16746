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


T = TypeVar("T", bound="ItemDataRecord")


@_attrs_define
class ItemDataRecord:
    """
    Attributes:
        field_entity (Literal['ItemData']):
        field_id (int):
        field_version (int):
        amount (None | str): An exact decimal, its digits in a string (at most 38 significant ones); a JSON number is
            accepted on input.
        create_date (datetime.datetime):
        item (int | None):
        memo (int | None):
        value (float):
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
    """

    field_entity: Literal["ItemData"]
    field_id: int
    field_version: int
    amount: None | str
    create_date: datetime.datetime
    item: int | None
    memo: int | None
    value: float
    field_cloned_from: ClonedFrom | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        amount: None | str
        amount = self.amount

        create_date = self.create_date.isoformat()

        item: int | None
        item = self.item

        memo: int | None
        memo = self.memo

        value = self.value

        field_cloned_from: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_cloned_from, Unset):
            field_cloned_from = self.field_cloned_from.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_entity": field_entity,
                "_id": field_id,
                "_version": field_version,
                "amount": amount,
                "createDate": create_date,
                "item": item,
                "memo": memo,
                "value": value,
            }
        )
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cloned_from import ClonedFrom

        d = dict(src_dict)
        field_entity = cast(Literal["ItemData"], d.pop("_entity"))
        if field_entity != "ItemData":
            raise ValueError(
                f"_entity must match const 'ItemData', got '{field_entity}'"
            )

        field_id = d.pop("_id")

        field_version = d.pop("_version")

        def _parse_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        amount = _parse_amount(d.pop("amount"))

        create_date = datetime.datetime.fromisoformat(d.pop("createDate"))

        def _parse_item(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        item = _parse_item(d.pop("item"))

        def _parse_memo(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        memo = _parse_memo(d.pop("memo"))

        value = d.pop("value")

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        item_data_record = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            amount=amount,
            create_date=create_date,
            item=item,
            memo=memo,
            value=value,
            field_cloned_from=field_cloned_from,
        )

        item_data_record.additional_properties = d
        return item_data_record

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
