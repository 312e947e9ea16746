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
    from ..models.memo_create import MemoCreate


T = TypeVar("T", bound="AttachmentUpdate")


@_attrs_define
class AttachmentUpdate:
    """
    Attributes:
        field_entity (Literal['Attachment'] | Unset):
        field_id (int | Unset):
        field_version (int | Unset):
        image (str | Unset):
        memo (int | MemoCreate | Unset):
        mime_type (str | Unset):
    """

    field_entity: Literal["Attachment"] | Unset = UNSET
    field_id: int | Unset = UNSET
    field_version: int | Unset = UNSET
    image: str | Unset = UNSET
    memo: int | MemoCreate | Unset = UNSET
    mime_type: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.memo_create import MemoCreate

        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        image = self.image

        memo: dict[str, Any] | int | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        elif isinstance(self.memo, MemoCreate):
            memo = self.memo.to_dict()
        else:
            memo = self.memo

        mime_type = self.mime_type

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if field_version is not UNSET:
            field_dict["_version"] = field_version
        if image is not UNSET:
            field_dict["image"] = image
        if memo is not UNSET:
            field_dict["memo"] = memo
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.memo_create import MemoCreate

        d = dict(src_dict)
        field_entity = cast(Literal["Attachment"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Attachment" and not isinstance(field_entity, Unset):
            raise ValueError(
                f"_entity must match const 'Attachment', got '{field_entity}'"
            )

        field_id = d.pop("_id", UNSET)

        field_version = d.pop("_version", UNSET)

        image = d.pop("image", UNSET)

        def _parse_memo(data: object) -> int | MemoCreate | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                memo_type_1 = MemoCreate.from_dict(data)

                return memo_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | MemoCreate | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        mime_type = d.pop("mimeType", UNSET)

        attachment_update = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            image=image,
            memo=memo,
            mime_type=mime_type,
        )

        return attachment_update
