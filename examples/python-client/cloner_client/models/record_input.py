from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RecordInput")


@_attrs_define
class RecordInput:
    """Attributes and relationships by name. Unknown names, wrong types and (on create) missing
    required attributes answer 422 listing every offending field. A relationship value is an
    `_id` (link an existing object), a nested object (create it too, recursively, in the same
    transaction) or null; a to-many one an array of those. `_clonedFrom` cannot be set (422 naming it).
    `_id`/`_version` cannot be set on create;
    on update they may be sent back only as the record's own (else 422 naming them), and an update
    that changes nothing keeps `_version`; `_entity`, when present, must be the entity's name.

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        record_input = cls()

        record_input.additional_properties = d
        return record_input

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
