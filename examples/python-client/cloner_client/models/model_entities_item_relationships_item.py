from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.model_entities_item_relationships_item_delete_rule import (
    ModelEntitiesItemRelationshipsItemDeleteRule,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.model_entities_item_relationships_item_user_info import (
        ModelEntitiesItemRelationshipsItemUserInfo,
    )


T = TypeVar("T", bound="ModelEntitiesItemRelationshipsItem")


@_attrs_define
class ModelEntitiesItemRelationshipsItem:
    """
    Attributes:
        name (str):
        destination (str):
        to_many (bool):
        ordered (bool):
        inverse (None | str):
        delete_rule (ModelEntitiesItemRelationshipsItemDeleteRule):
        optional (bool):
        user_info (ModelEntitiesItemRelationshipsItemUserInfo):
        renaming_id (str | Unset): A Core Data model's Renaming ID, when it has one.
        min_count (int | Unset): A to-many's least size, when the model sets one.
        max_count (int | Unset): A to-many's greatest size, when the model sets one.
    """

    name: str
    destination: str
    to_many: bool
    ordered: bool
    inverse: None | str
    delete_rule: ModelEntitiesItemRelationshipsItemDeleteRule
    optional: bool
    user_info: ModelEntitiesItemRelationshipsItemUserInfo
    renaming_id: str | Unset = UNSET
    min_count: int | Unset = UNSET
    max_count: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        destination = self.destination

        to_many = self.to_many

        ordered = self.ordered

        inverse: None | str
        inverse = self.inverse

        delete_rule = self.delete_rule.value

        optional = self.optional

        user_info = self.user_info.to_dict()

        renaming_id = self.renaming_id

        min_count = self.min_count

        max_count = self.max_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "destination": destination,
                "toMany": to_many,
                "ordered": ordered,
                "inverse": inverse,
                "deleteRule": delete_rule,
                "optional": optional,
                "userInfo": user_info,
            }
        )
        if renaming_id is not UNSET:
            field_dict["renamingID"] = renaming_id
        if min_count is not UNSET:
            field_dict["minCount"] = min_count
        if max_count is not UNSET:
            field_dict["maxCount"] = max_count

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.model_entities_item_relationships_item_user_info import (
            ModelEntitiesItemRelationshipsItemUserInfo,
        )

        d = dict(src_dict)
        name = d.pop("name")

        destination = d.pop("destination")

        to_many = d.pop("toMany")

        ordered = d.pop("ordered")

        def _parse_inverse(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        inverse = _parse_inverse(d.pop("inverse"))

        delete_rule = ModelEntitiesItemRelationshipsItemDeleteRule(d.pop("deleteRule"))

        optional = d.pop("optional")

        user_info = ModelEntitiesItemRelationshipsItemUserInfo.from_dict(
            d.pop("userInfo")
        )

        renaming_id = d.pop("renamingID", UNSET)

        min_count = d.pop("minCount", UNSET)

        max_count = d.pop("maxCount", UNSET)

        model_entities_item_relationships_item = cls(
            name=name,
            destination=destination,
            to_many=to_many,
            ordered=ordered,
            inverse=inverse,
            delete_rule=delete_rule,
            optional=optional,
            user_info=user_info,
            renaming_id=renaming_id,
            min_count=min_count,
            max_count=max_count,
        )

        model_entities_item_relationships_item.additional_properties = d
        return model_entities_item_relationships_item

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
