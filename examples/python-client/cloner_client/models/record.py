from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cloned_from import ClonedFrom


T = TypeVar("T", bound="Record")


@_attrs_define
class Record:
    """The service's keys, then every attribute and relationship of the entity by name.

    Example:
        {'_id': 42, '_entity': 'Note', '_version': 3, 'id': '0f8fad5b-d9cb-469f-a165-70867728950e', 'name': 'Groceries',
            'createDate': '2026-11-21T20:15:29.123Z', 'index': 0, 'data': None, 'items': [100, 101], 'noteDescription': 7}

    Attributes:
        field_id (int):
        field_entity (str):
        field_version (int):
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
    """

    field_id: int
    field_entity: str
    field_version: int
    field_cloned_from: ClonedFrom | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        field_entity = self.field_entity

        field_version = self.field_version

        field_cloned_from: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_cloned_from, Unset):
            field_cloned_from = self.field_cloned_from.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "_entity": field_entity,
                "_version": field_version,
            }
        )
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cloned_from import ClonedFrom

        d = dict(src_dict)
        field_id = d.pop("_id")

        field_entity = d.pop("_entity")

        field_version = d.pop("_version")

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        record = cls(
            field_id=field_id,
            field_entity=field_entity,
            field_version=field_version,
            field_cloned_from=field_cloned_from,
        )

        record.additional_properties = d
        return record

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
