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


T = TypeVar("T", bound="AttachmentCreate")


@_attrs_define
class AttachmentCreate:
    """
    Attributes:
        image (str):
        memo (int | MemoCreate):
        field_entity (Literal['Attachment'] | Unset):
        mime_type (str | Unset):
    """

    image: str
    memo: int | MemoCreate
    field_entity: Literal["Attachment"] | Unset = UNSET
    mime_type: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.memo_create import MemoCreate

        image = self.image

        memo: dict[str, Any] | int
        if isinstance(self.memo, MemoCreate):
            memo = self.memo.to_dict()
        else:
            memo = self.memo

        field_entity = self.field_entity

        mime_type = self.mime_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "image": image,
                "memo": memo,
            }
        )
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.memo_create import MemoCreate

        d = dict(src_dict)
        image = d.pop("image")

        def _parse_memo(data: object) -> int | MemoCreate:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                memo_type_1 = MemoCreate.from_dict(data)

                return memo_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | MemoCreate, data)

        memo = _parse_memo(d.pop("memo"))

        field_entity = cast(Literal["Attachment"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Attachment" and not isinstance(field_entity, Unset):
            raise ValueError(
                f"_entity must match const 'Attachment', got '{field_entity}'"
            )

        mime_type = d.pop("mimeType", UNSET)

        attachment_create = cls(
            image=image,
            memo=memo,
            field_entity=field_entity,
            mime_type=mime_type,
        )

        return attachment_create
