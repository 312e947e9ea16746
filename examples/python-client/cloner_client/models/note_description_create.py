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

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.note_create import NoteCreate


T = TypeVar("T", bound="NoteDescriptionCreate")


@_attrs_define
class NoteDescriptionCreate:
    """
    Attributes:
        field_entity (Literal['NoteDescription'] | Unset):
        content (None | str | Unset):
        note (int | None | NoteCreate | Unset):
    """

    field_entity: Literal["NoteDescription"] | Unset = UNSET
    content: None | str | Unset = UNSET
    note: int | None | NoteCreate | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.note_create import NoteCreate

        field_entity = self.field_entity

        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        note: dict[str, Any] | int | None | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        elif isinstance(self.note, NoteCreate):
            note = self.note.to_dict()
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if content is not UNSET:
            field_dict["content"] = content
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.note_create import NoteCreate

        d = dict(src_dict)
        field_entity = cast(Literal["NoteDescription"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "NoteDescription" and not isinstance(field_entity, Unset):
            raise ValueError(
                f"_entity must match const 'NoteDescription', got '{field_entity}'"
            )

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_note(data: object) -> int | None | NoteCreate | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                note_type_1 = NoteCreate.from_dict(data)

                return note_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | None | NoteCreate | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        note_description_create = cls(
            field_entity=field_entity,
            content=content,
            note=note,
        )

        return note_description_create
