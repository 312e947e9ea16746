from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ItemRecordListsAdditionalProperty")


@_attrs_define
class ItemRecordListsAdditionalProperty:
    """
    Attributes:
        all_ (None | str): The list route filtered by the inverse to-one: every linked object, paged in `_id` order;
            null for a many-to-many.
        count (int):
        inline (int):
    """

    all_: None | str
    count: int
    inline: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        all_: None | str
        all_ = self.all_

        count = self.count

        inline = self.inline

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "all": all_,
                "count": count,
                "inline": inline,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_all_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        all_ = _parse_all_(d.pop("all"))

        count = d.pop("count")

        inline = d.pop("inline")

        item_record_lists_additional_property = cls(
            all_=all_,
            count=count,
            inline=inline,
        )

        item_record_lists_additional_property.additional_properties = d
        return item_record_lists_additional_property

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
