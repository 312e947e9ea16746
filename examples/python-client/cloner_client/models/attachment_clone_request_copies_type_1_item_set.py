from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttachmentCloneRequestCopiesType1ItemSet")


@_attrs_define
class AttachmentCloneRequestCopiesType1ItemSet:
    """
    Attributes:
        image (str | Unset):
        memo (int | None | Unset):
        mime_type (str | Unset):
    """

    image: str | Unset = UNSET
    memo: int | None | Unset = UNSET
    mime_type: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        image = self.image

        memo: int | None | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        mime_type = self.mime_type

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if image is not UNSET:
            field_dict["image"] = image
        if memo is not UNSET:
            field_dict["memo"] = memo
        if mime_type is not UNSET:
            field_dict["mimeType"] = mime_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        image = d.pop("image", UNSET)

        def _parse_memo(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        mime_type = d.pop("mimeType", UNSET)

        attachment_clone_request_copies_type_1_item_set = cls(
            image=image,
            memo=memo,
            mime_type=mime_type,
        )

        return attachment_clone_request_copies_type_1_item_set
