from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tag_clone_request_copies_type_1_item_set import (
        TagCloneRequestCopiesType1ItemSet,
    )


T = TypeVar("T", bound="TagCloneRequestCopiesType1Item")


@_attrs_define
class TagCloneRequestCopiesType1Item:
    """
    Attributes:
        set_ (TagCloneRequestCopiesType1ItemSet | Unset):
    """

    set_: TagCloneRequestCopiesType1ItemSet | Unset = UNSET

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
        from ..models.tag_clone_request_copies_type_1_item_set import (
            TagCloneRequestCopiesType1ItemSet,
        )

        d = dict(src_dict)
        _set_ = d.pop("set", UNSET)
        set_: TagCloneRequestCopiesType1ItemSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = TagCloneRequestCopiesType1ItemSet.from_dict(_set_)

        tag_clone_request_copies_type_1_item = cls(
            set_=set_,
        )

        return tag_clone_request_copies_type_1_item
