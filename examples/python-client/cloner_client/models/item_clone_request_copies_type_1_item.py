from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.item_clone_request_copies_type_1_item_set import (
        ItemCloneRequestCopiesType1ItemSet,
    )


T = TypeVar("T", bound="ItemCloneRequestCopiesType1Item")


@_attrs_define
class ItemCloneRequestCopiesType1Item:
    """
    Attributes:
        set_ (ItemCloneRequestCopiesType1ItemSet | Unset):
    """

    set_: ItemCloneRequestCopiesType1ItemSet | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        set_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.set_, Unset):
            set_ = self.set_.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if set_ is not UNSET:
            field_dict["set"] = set_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.item_clone_request_copies_type_1_item_set import (
            ItemCloneRequestCopiesType1ItemSet,
        )

        d = dict(src_dict)
        _set_ = d.pop("set", UNSET)
        set_: ItemCloneRequestCopiesType1ItemSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = ItemCloneRequestCopiesType1ItemSet.from_dict(_set_)

        item_clone_request_copies_type_1_item = cls(
            set_=set_,
        )

        return item_clone_request_copies_type_1_item
