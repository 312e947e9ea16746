from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.note_description_clone_request_copies_type_1_item_set import (
        NoteDescriptionCloneRequestCopiesType1ItemSet,
    )


T = TypeVar("T", bound="NoteDescriptionCloneRequestCopiesType1Item")


@_attrs_define
class NoteDescriptionCloneRequestCopiesType1Item:
    """
    Attributes:
        set_ (NoteDescriptionCloneRequestCopiesType1ItemSet | Unset):
    """

    set_: NoteDescriptionCloneRequestCopiesType1ItemSet | Unset = UNSET

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
        from ..models.note_description_clone_request_copies_type_1_item_set import (
            NoteDescriptionCloneRequestCopiesType1ItemSet,
        )

        d = dict(src_dict)
        _set_ = d.pop("set", UNSET)
        set_: NoteDescriptionCloneRequestCopiesType1ItemSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = NoteDescriptionCloneRequestCopiesType1ItemSet.from_dict(_set_)

        note_description_clone_request_copies_type_1_item = cls(
            set_=set_,
        )

        return note_description_clone_request_copies_type_1_item
