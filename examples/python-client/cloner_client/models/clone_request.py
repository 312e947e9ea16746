from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clone_request_copies_type_1_item import CloneRequestCopiesType1Item
    from ..models.clone_request_set import CloneRequestSet


T = TypeVar("T", bound="CloneRequest")


@_attrs_define
class CloneRequest:
    """
    Attributes:
        exclude (list[str] | Unset): Properties not to clone. A bare name applies to the root entity; `Entity.property`
            applies to that entity wherever it occurs. Naming no property is a 422.
        set_ (CloneRequestSet | Unset): Values for the root's clone, by property name: attribute values (overriding
            every clone
            rule), or relationship links as `_id`s (a to-one `_id` or null, a to-many array of `_id`s),
            e.g. to clone a note into another folder. Naming no property of the root entity is a 422.
        copies (int | list[CloneRequestCopiesType1Item] | Unset): Many full clones of the root in one transaction (a
            template copied for 30 classes): a
            count, or a list of per-copy `{"set": {...}}` objects (attributes and to-one `_id`s), each
            merged over the request's own `set`. Each copy has its own identity map, rebuilt UUIDs and
            followParent values; shared objects are linked by all of them. At most `maxCopies` (default
            1000) — beyond it, below 1, or a malformed entry is a 422 naming the field
            (`copies`, `copies[3].set.name`). A relationship set for one copy must be set for every copy.
            A unique clash in any copy rolls back all of them: 409 naming `copies[k].<attribute>`.
            `maxObjectsPerClone` counts all copies together. The root's `set` values, counted once
            per copy they apply to (a to-many list's `_id`s 8 bytes each), may hold at most
            `maxCloneSetBytes` bytes (default 64 MiB); more is a 422 naming `set` or `copies`.
        dry_run (bool | Unset): Plan and count only; nothing is written (200). Default: False.
        return_ids (bool | Unset): Include `ids` (old → new `_id` per entity) in the answer. Default: False.
    """

    exclude: list[str] | Unset = UNSET
    set_: CloneRequestSet | Unset = UNSET
    copies: int | list[CloneRequestCopiesType1Item] | Unset = UNSET
    dry_run: bool | Unset = False
    return_ids: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        exclude: list[str] | Unset = UNSET
        if not isinstance(self.exclude, Unset):
            exclude = self.exclude

        set_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.set_, Unset):
            set_ = self.set_.to_dict()

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

        return_ids = self.return_ids

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if exclude is not UNSET:
            field_dict["exclude"] = exclude
        if set_ is not UNSET:
            field_dict["set"] = set_
        if copies is not UNSET:
            field_dict["copies"] = copies
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run
        if return_ids is not UNSET:
            field_dict["returnIds"] = return_ids

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.clone_request_copies_type_1_item import (
            CloneRequestCopiesType1Item,
        )
        from ..models.clone_request_set import CloneRequestSet

        d = dict(src_dict)
        exclude = cast(list[str], d.pop("exclude", UNSET))

        _set_ = d.pop("set", UNSET)
        set_: CloneRequestSet | Unset
        if isinstance(_set_, Unset):
            set_ = UNSET
        else:
            set_ = CloneRequestSet.from_dict(_set_)

        def _parse_copies(
            data: object,
        ) -> int | list[CloneRequestCopiesType1Item] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                copies_type_1 = []
                _copies_type_1 = data
                for copies_type_1_item_data in _copies_type_1:
                    copies_type_1_item = CloneRequestCopiesType1Item.from_dict(
                        copies_type_1_item_data
                    )

                    copies_type_1.append(copies_type_1_item)

                return copies_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[CloneRequestCopiesType1Item] | Unset, data)

        copies = _parse_copies(d.pop("copies", UNSET))

        dry_run = d.pop("dryRun", UNSET)

        return_ids = d.pop("returnIds", UNSET)

        clone_request = cls(
            exclude=exclude,
            set_=set_,
            copies=copies,
            dry_run=dry_run,
            return_ids=return_ids,
        )

        return clone_request
