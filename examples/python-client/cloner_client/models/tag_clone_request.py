from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.tag_clone_request_exclude_item import TagCloneRequestExcludeItem
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tag_clone_request_copies_type_1_item import (
        TagCloneRequestCopiesType1Item,
    )
    from ..models.tag_clone_request_set import TagCloneRequestSet


T = TypeVar("T", bound="TagCloneRequest")


@_attrs_define
class TagCloneRequest:
    """
    Attributes:
        copies (int | list[TagCloneRequestCopiesType1Item] | Unset):
        dry_run (bool | Unset):  Default: False.
        exclude (list[TagCloneRequestExcludeItem] | Unset):
        return_ids (bool | Unset):  Default: False.
        set_ (TagCloneRequestSet | Unset):
    """

    copies: int | list[TagCloneRequestCopiesType1Item] | Unset = UNSET
    dry_run: bool | Unset = False
    exclude: list[TagCloneRequestExcludeItem] | Unset = UNSET
    return_ids: bool | Unset = False
    set_: TagCloneRequestSet | Unset = UNSET

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
        from ..models.tag_clone_request_copies_type_1_item import (
            TagCloneRequestCopiesType1Item,
        )
        from ..models.tag_clone_request_set import TagCloneRequestSet

        d = dict(src_dict)

        def _parse_copies(
            data: object,
        ) -> int | list[TagCloneRequestCopiesType1Item] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                copies_type_1 = []
                _copies_type_1 = data
                for copies_type_1_item_data in _copies_type_1:
                    copies_type_1_item = TagCloneRequestCopiesType1Item.from_dict(
                        copies_type_1_item_data
                    )

                    copies_type_1.append(copies_type_1_item)

                return copies_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[TagCloneRequestCopiesType1Item] | Unset, data)

        copies = _parse_copies(d.pop("copies", UNSET))

        dry_run = d.pop("dryRun", UNSET)

        _exclude = d.pop("exclude", UNSET)
        exclude: list[TagCloneRequestExcludeItem] | Unset = UNSET
        if _exclude is not UNSET:
            exclude = []
            for exclude_item_data in _exclude:
                exclude_item = TagCloneRequestExcludeItem(exclude_item_data)

                exclude.append(exclude_item)

        return_ids = d.pop("returnIds", UNSET)

        _set_ = d.pop("set", UNSET)
        set_: TagCloneRequestSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = TagCloneRequestSet.from_dict(_set_)

        tag_clone_request = cls(
            copies=copies,
            dry_run=dry_run,
            exclude=exclude,
            return_ids=return_ids,
            set_=set_,
        )

        return tag_clone_request
