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


T = TypeVar("T", bound="NoteDescriptionRecord")


@_attrs_define
class NoteDescriptionRecord:
    """
    Attributes:
        field_entity (Literal['NoteDescription']):
        field_id (int):
        field_version (int):
        content (None | str):
        note (int | None):
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
    """

    field_entity: Literal["NoteDescription"]
    field_id: int
    field_version: int
    content: None | str
    note: int | None
    field_cloned_from: ClonedFrom | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        content: None | str
        content = self.content

        note: int | None
        note = self.note

        field_cloned_from: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_cloned_from, Unset):
            field_cloned_from = self.field_cloned_from.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_entity": field_entity,
                "_id": field_id,
                "_version": field_version,
                "content": content,
                "note": note,
            }
        )
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cloned_from import ClonedFrom

        d = dict(src_dict)
        field_entity = cast(Literal["NoteDescription"], d.pop("_entity"))
        if field_entity != "NoteDescription":
            raise ValueError(
                f"_entity must match const 'NoteDescription', got '{field_entity}'"
            )

        field_id = d.pop("_id")

        field_version = d.pop("_version")

        def _parse_content(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content = _parse_content(d.pop("content"))

        def _parse_note(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        note = _parse_note(d.pop("note"))

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        note_description_record = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            content=content,
            note=note,
            field_cloned_from=field_cloned_from,
        )

        note_description_record.additional_properties = d
        return note_description_record

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
