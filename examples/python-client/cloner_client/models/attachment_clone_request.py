from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.attachment_clone_request_exclude_item import (
    AttachmentCloneRequestExcludeItem,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_clone_request_copies_type_1_item import (
        AttachmentCloneRequestCopiesType1Item,
    )
    from ..models.attachment_clone_request_set import AttachmentCloneRequestSet


T = TypeVar("T", bound="AttachmentCloneRequest")


@_attrs_define
class AttachmentCloneRequest:
    """
    Attributes:
        copies (int | list[AttachmentCloneRequestCopiesType1Item] | Unset):
        dry_run (bool | Unset):  Default: False.
        exclude (list[AttachmentCloneRequestExcludeItem] | Unset):
        return_ids (bool | Unset):  Default: False.
        set_ (AttachmentCloneRequestSet | Unset):
    """

    copies: int | list[AttachmentCloneRequestCopiesType1Item] | Unset = UNSET
    dry_run: bool | Unset = False
    exclude: list[AttachmentCloneRequestExcludeItem] | Unset = UNSET
    return_ids: bool | Unset = False
    set_: AttachmentCloneRequestSet | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        copies: int | list[dict[str, Any]] | Unset
        if isinstance(self.copies, Unset):
            copies = UNSET
        elif isinstance(self.copies, list):
            copies = []
            for copies_type_1_item_data in self.copies:
                copies_type_1_item = copies_type_1_item_data.to_dict()
                copies.append(copies_type_1_item)

        else:
            copies = self.copies

        dry_run = self.dry_run

        exclude: list[str] | Unset = UNSET
        if not isinstance(self.exclude, Unset):
            exclude = []
            for exclude_item_data in self.exclude:
                exclude_item = exclude_item_data.value
                exclude.append(exclude_item)

        return_ids = self.return_ids

        set_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.set_, Unset):
            set_ = self.set_.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if copies is not UNSET:
            field_dict["copies"] = copies
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run
        if exclude is not UNSET:
            field_dict["exclude"] = exclude
        if return_ids is not UNSET:
            field_dict["returnIds"] = return_ids
        if set_ is not UNSET:
            field_dict["set"] = set_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attachment_clone_request_copies_type_1_item import (
            AttachmentCloneRequestCopiesType1Item,
        )
        from ..models.attachment_clone_request_set import AttachmentCloneRequestSet

        d = dict(src_dict)

        def _parse_copies(
            data: object,
        ) -> int | list[AttachmentCloneRequestCopiesType1Item] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                copies_type_1 = []
                _copies_type_1 = data
                for copies_type_1_item_data in _copies_type_1:
                    copies_type_1_item = (
                        AttachmentCloneRequestCopiesType1Item.from_dict(
                            copies_type_1_item_data
                        )
                    )

                    copies_type_1.append(copies_type_1_item)

                return copies_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[AttachmentCloneRequestCopiesType1Item] | Unset, data)

        copies = _parse_copies(d.pop("copies", UNSET))

        dry_run = d.pop("dryRun", UNSET)

        _exclude = d.pop("exclude", UNSET)
        exclude: list[AttachmentCloneRequestExcludeItem] | Unset = UNSET
        if _exclude is not UNSET:
            exclude = []
            for exclude_item_data in _exclude:
                exclude_item = AttachmentCloneRequestExcludeItem(exclude_item_data)

                exclude.append(exclude_item)

        return_ids = d.pop("returnIds", UNSET)

        _set_ = d.pop("set", UNSET)
        set_: AttachmentCloneRequestSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = AttachmentCloneRequestSet.from_dict(_set_)

        attachment_clone_request = cls(
            copies=copies,
            dry_run=dry_run,
            exclude=exclude,
            return_ids=return_ids,
            set_=set_,
        )

        return attachment_clone_request
