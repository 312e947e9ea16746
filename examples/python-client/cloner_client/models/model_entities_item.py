from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.model_entities_item_attributes_item import (
        ModelEntitiesItemAttributesItem,
    )
    from ..models.model_entities_item_relationships_item import (
        ModelEntitiesItemRelationshipsItem,
    )


T = TypeVar("T", bound="ModelEntitiesItem")


@_attrs_define
class ModelEntitiesItem:
    """
    Attributes:
        name (str):
        collection (str):
        attributes (list[ModelEntitiesItemAttributesItem]):
        relationships (list[ModelEntitiesItemRelationshipsItem]):
        unique_together (list[list[str]]): Groups of attributes whose values together must be unique; a clash answers
            409 `conflict` naming every attribute of the group.
        renaming_id (str | Unset): A Core Data model's Renaming ID of the entity, when it has one.
    """

    name: str
    collection: str
    attributes: list[ModelEntitiesItemAttributesItem]
    relationships: list[ModelEntitiesItemRelationshipsItem]
    unique_together: list[list[str]]
    renaming_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        collection = self.collection

        attributes = []
        for attributes_item_data in self.attributes:
            attributes_item = attributes_item_data.to_dict()
            attributes.append(attributes_item)

        relationships = []
        for relationships_item_data in self.relationships:
            relationships_item = relationships_item_data.to_dict()
            relationships.append(relationships_item)

        unique_together = []
        for unique_together_item_data in self.unique_together:
            unique_together_item = unique_together_item_data

            unique_together.append(unique_together_item)

        renaming_id = self.renaming_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "collection": collection,
                "attributes": attributes,
                "relationships": relationships,
                "uniqueTogether": unique_together,
            }
        )
        if renaming_id is not UNSET:
            field_dict["renamingID"] = renaming_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.model_entities_item_attributes_item import (
            ModelEntitiesItemAttributesItem,
        )
        from ..models.model_entities_item_relationships_item import (
            ModelEntitiesItemRelationshipsItem,
        )

        d = dict(src_dict)
        name = d.pop("name")

        collection = d.pop("collection")

        attributes = []
        _attributes = d.pop("attributes")
        for attributes_item_data in _attributes:
            attributes_item = ModelEntitiesItemAttributesItem.from_dict(
                attributes_item_data
            )

            attributes.append(attributes_item)

        relationships = []
        _relationships = d.pop("relationships")
        for relationships_item_data in _relationships:
            relationships_item = ModelEntitiesItemRelationshipsItem.from_dict(
                relationships_item_data
            )

            relationships.append(relationships_item)

        unique_together = []
        _unique_together = d.pop("uniqueTogether")
        for unique_together_item_data in _unique_together:
            unique_together_item = cast(list[str], unique_together_item_data)

            unique_together.append(unique_together_item)

        renaming_id = d.pop("renamingID", UNSET)

        model_entities_item = cls(
            name=name,
            collection=collection,
            attributes=attributes,
            relationships=relationships,
            unique_together=unique_together,
            renaming_id=renaming_id,
        )

        model_entities_item.additional_properties = d
        return model_entities_item

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
