from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttachmentCreateUnderMemo")


@_attrs_define
class AttachmentCreateUnderMemo:
    """
    Attributes:
        image (str):
        field_entity (Literal['Attachment'] | Unset):
        mime_type (str | Unset):
    """

    image: str
    field_entity: Literal["Attachment"] | Unset = UNSET
    mime_type: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        image = self.image

        field_entity = self.field_entity

        mime_type = self.mime_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "image": image,
            }
        )
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        image = d.pop("image")

        field_entity = cast(Literal["Attachment"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Attachment" and not isinstance(field_entity, Unset):
            raise ValueError(
                f"_entity must match const 'Attachment', got '{field_entity}'"
            )

        mime_type = d.pop("mimeType", UNSET)

        attachment_create_under_memo = cls(
            image=image,
            field_entity=field_entity,
            mime_type=mime_type,
        )

        return attachment_create_under_memo
