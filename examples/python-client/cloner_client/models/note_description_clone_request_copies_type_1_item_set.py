from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NoteDescriptionCloneRequestCopiesType1ItemSet")


@_attrs_define
class NoteDescriptionCloneRequestCopiesType1ItemSet:
    """
    Attributes:
        content (None | str | Unset):
        note (int | None | Unset):
    """

    content: None | str | Unset = UNSET
    note: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        content: None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        else:
            content = self.content

        note: int | None | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if content is not UNSET:
            field_dict["content"] = content
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_note(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        note_description_clone_request_copies_type_1_item_set = cls(
            content=content,
            note=note,
        )

        return note_description_clone_request_copies_type_1_item_set
