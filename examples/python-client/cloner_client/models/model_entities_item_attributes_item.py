from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.model_entities_item_attributes_item_bits import (
    ModelEntitiesItemAttributesItemBits,
)
from ..models.model_entities_item_attributes_item_type import (
    ModelEntitiesItemAttributesItemType,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.model_entities_item_attributes_item_user_info import (
        ModelEntitiesItemAttributesItemUserInfo,
    )


T = TypeVar("T", bound="ModelEntitiesItemAttributesItem")


@_attrs_define
class ModelEntitiesItemAttributesItem:
    """
    Attributes:
        name (str):
        type_ (ModelEntitiesItemAttributesItemType):
        optional (bool):
        default (Any): The default value in the attribute's JSON form
        unique (bool):
        original_name (None | str):
        user_info (ModelEntitiesItemAttributesItemUserInfo):
        bits (ModelEntitiesItemAttributesItemBits | Unset): An integer's width when it is not 64 (Core Data's Integer 16
            and 32): a value outside it is a 422.
        renaming_id (str | Unset): A Core Data model's Renaming ID, when it has one.
    """

    name: str
    type_: ModelEntitiesItemAttributesItemType
    optional: bool
    default: Any
    unique: bool
    original_name: None | str
    user_info: ModelEntitiesItemAttributesItemUserInfo
    bits: ModelEntitiesItemAttributesItemBits | Unset = UNSET
    renaming_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        optional = self.optional

        default = self.default

        unique = self.unique

        original_name: None | str
        original_name = self.original_name

        user_info = self.user_info.to_dict()

        bits: int | Unset = UNSET
        if not isinstance(self.bits, Unset):
            bits = self.bits.value

        renaming_id = self.renaming_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
                "optional": optional,
                "default": default,
                "unique": unique,
                "originalName": original_name,
                "userInfo": user_info,
            }
        )
        if bits is not UNSET:
            field_dict["bits"] = bits
        if renaming_id is not UNSET:
            field_dict["renamingID"] = renaming_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.model_entities_item_attributes_item_user_info import (
            ModelEntitiesItemAttributesItemUserInfo,
        )

        d = dict(src_dict)
        name = d.pop("name")

        type_ = ModelEntitiesItemAttributesItemType(d.pop("type"))

        optional = d.pop("optional")

        default = d.pop("default")

        unique = d.pop("unique")

        def _parse_original_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        original_name = _parse_original_name(d.pop("originalName"))

        user_info = ModelEntitiesItemAttributesItemUserInfo.from_dict(d.pop("userInfo"))

        _bits = d.pop("bits", UNSET)
        bits: ModelEntitiesItemAttributesItemBits | Unset
        if isinstance(_bits, Unset):
            bits = UNSET
        else:
            bits = ModelEntitiesItemAttributesItemBits(_bits)

        renaming_id = d.pop("renamingID", UNSET)

        model_entities_item_attributes_item = cls(
            name=name,
            type_=type_,
            optional=optional,
            default=default,
            unique=unique,
            original_name=original_name,
            user_info=user_info,
            bits=bits,
            renaming_id=renaming_id,
        )

        model_entities_item_attributes_item.additional_properties = d
        return model_entities_item_attributes_item

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
