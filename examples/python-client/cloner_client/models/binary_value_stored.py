from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BinaryValueStored")


@_attrs_define
class BinaryValueStored:
    """
    Attributes:
        entity (str):
        id (int):
        attribute (str):
        size (int):
        sha256 (str):
        field_version (int):
    """

    entity: str
    id: int
    attribute: str
    size: int
    sha256: str
    field_version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entity = self.entity

        id = self.id

        attribute = self.attribute

        size = self.size

        sha256 = self.sha256

        field_version = self.field_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entity": entity,
                "id": id,
                "attribute": attribute,
                "size": size,
                "sha256": sha256,
                "_version": field_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entity = d.pop("entity")

        id = d.pop("id")

        attribute = d.pop("attribute")

        size = d.pop("size")

        sha256 = d.pop("sha256")

        field_version = d.pop("_version")

        binary_value_stored = cls(
            entity=entity,
            id=id,
            attribute=attribute,
            size=size,
            sha256=sha256,
            field_version=field_version,
        )

        binary_value_stored.additional_properties = d
        return binary_value_stored

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
