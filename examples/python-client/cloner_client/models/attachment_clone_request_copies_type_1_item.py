from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_clone_request_copies_type_1_item_set import (
        AttachmentCloneRequestCopiesType1ItemSet,
    )


T = TypeVar("T", bound="AttachmentCloneRequestCopiesType1Item")


@_attrs_define
class AttachmentCloneRequestCopiesType1Item:
    """
    Attributes:
        set_ (AttachmentCloneRequestCopiesType1ItemSet | Unset):
    """

    set_: AttachmentCloneRequestCopiesType1ItemSet | Unset = UNSET

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
        from ..models.attachment_clone_request_copies_type_1_item_set import (
            AttachmentCloneRequestCopiesType1ItemSet,
        )

        d = dict(src_dict)
        _set_ = d.pop("set", UNSET)
        set_: AttachmentCloneRequestCopiesType1ItemSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = AttachmentCloneRequestCopiesType1ItemSet.from_dict(_set_)

        attachment_clone_request_copies_type_1_item = cls(
            set_=set_,
        )

        return attachment_clone_request_copies_type_1_item
