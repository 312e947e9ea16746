from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cloned_from import ClonedFrom
    from ..models.tag_record_lists import TagRecordLists


T = TypeVar("T", bound="TagRecord")


@_attrs_define
class TagRecord:
    """
    Attributes:
        field_entity (Literal['Tag']):
        field_id (int):
        field_version (int):
        color (None | str):
        memos (list[int]): The first 1000 `_id`s; `_lists` tells of the rest.
        name (str):
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
        field_lists (TagRecordLists | Unset): Present when a to-many links more than 1000 objects: per such
            relationship, how many, and where they all are.
    """

    field_entity: Literal["Tag"]
    field_id: int
    field_version: int
    color: None | str
    memos: list[int]
    name: str
    field_cloned_from: ClonedFrom | Unset = UNSET
    field_lists: TagRecordLists | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        color: None | str
        color = self.color

        memos = self.memos

        name = self.name

        field_cloned_from: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_cloned_from, Unset):
            field_cloned_from = self.field_cloned_from.to_dict()

        field_lists: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_lists, Unset):
            field_lists = self.field_lists.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_entity": field_entity,
                "_id": field_id,
                "_version": field_version,
                "color": color,
                "memos": memos,
                "name": name,
            }
        )
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from
        if field_lists is not UNSET:
            field_dict["_lists"] = field_lists

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cloned_from import ClonedFrom
        from ..models.tag_record_lists import TagRecordLists

        d = dict(src_dict)
        field_entity = cast(Literal["Tag"], d.pop("_entity"))
        if field_entity != "Tag":
            raise ValueError(f"_entity must match const 'Tag', got '{field_entity}'")

        field_id = d.pop("_id")

        field_version = d.pop("_version")

        def _parse_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        color = _parse_color(d.pop("color"))

        memos = cast(list[int], d.pop("memos"))

        name = d.pop("name")

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        _field_lists = d.pop("_lists", UNSET)
        field_lists: TagRecordLists | Unset
        if isinstance(_field_lists, Unset):
            field_lists = UNSET
        else:
            field_lists = TagRecordLists.from_dict(_field_lists)

        tag_record = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            color=color,
            memos=memos,
            name=name,
            field_cloned_from=field_cloned_from,
            field_lists=field_lists,
        )

        tag_record.additional_properties = d
        return tag_record

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
