from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CloneResultConflictsItem")


@_attrs_define
class CloneResultConflictsItem:
    """
    Attributes:
        entity (str):
        attributes (list[str]):
        objects (int):
    """

    entity: str
    attributes: list[str]
    objects: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entity = self.entity

        attributes = self.attributes

        objects = self.objects

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entity": entity,
                "attributes": attributes,
                "objects": objects,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entity = d.pop("entity")

        attributes = cast(list[str], d.pop("attributes"))

        objects = d.pop("objects")

        clone_result_conflicts_item = cls(
            entity=entity,
            attributes=attributes,
            objects=objects,
        )

        clone_result_conflicts_item.additional_properties = d
        return clone_result_conflicts_item

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
