from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_record import AttachmentRecord


T = TypeVar("T", bound="ListAttachmentResponse200")


@_attrs_define
class ListAttachmentResponse200:
    """
    Attributes:
        data (list[AttachmentRecord]):
        next_ (None | str): The next page (path and query), or null on the last page.
        count (int | Unset): With `count=true`: the records the filters match, on every page.
    """

    data: list[AttachmentRecord]
    next_: None | str
    count: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        next_: None | str
        next_ = self.next_

        count = self.count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "next": next_,
            }
        )
        if count is not UNSET:
            field_dict["count"] = count

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attachment_record import AttachmentRecord

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = AttachmentRecord.from_dict(data_item_data)

            data.append(data_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        count = d.pop("count", UNSET)

        list_attachment_response_200 = cls(
            data=data,
            next_=next_,
            count=count,
        )

        list_attachment_response_200.additional_properties = d
        return list_attachment_response_200

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
