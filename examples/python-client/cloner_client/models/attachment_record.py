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
    from ..models.attachment_record_blobs import AttachmentRecordBlobs
    from ..models.cloned_from import ClonedFrom


T = TypeVar("T", bound="AttachmentRecord")


@_attrs_define
class AttachmentRecord:
    """
    Attributes:
        field_entity (Literal['Attachment']):
        field_id (int):
        field_version (int):
        image (None | str): Base64; null when past the answer's `maxInlineBinaryBytes`, with `_blobs` giving its size
            and route.
        memo (int | None):
        mime_type (str):
        field_blobs (AttachmentRecordBlobs | Unset): Present when binary values were left out of the answer (their
            members null): past `maxInlineBinaryBytes`, counted in record order. Per such attribute, its size and route.
        field_cloned_from (ClonedFrom | Unset): On a clone's root only: the record it was copied from, of the same
            entity. Kept when that record
            is deleted (the id then names nothing). Set by the clone; no body may set it.
             Example: {'entity': 'Note', 'id': 1}.
    """

    field_entity: Literal["Attachment"]
    field_id: int
    field_version: int
    image: None | str
    memo: int | None
    mime_type: str
    field_blobs: AttachmentRecordBlobs | Unset = UNSET
    field_cloned_from: ClonedFrom | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_entity = self.field_entity

        field_id = self.field_id

        field_version = self.field_version

        image: None | str
        image = self.image

        memo: int | None
        memo = self.memo

        mime_type = self.mime_type

        field_blobs: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_blobs, Unset):
            field_blobs = self.field_blobs.to_dict()

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
                "image": image,
                "memo": memo,
                "mimeType": mime_type,
            }
        )
        if field_blobs is not UNSET:
            field_dict["_blobs"] = field_blobs
        if field_cloned_from is not UNSET:
            field_dict["_clonedFrom"] = field_cloned_from

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attachment_record_blobs import AttachmentRecordBlobs
        from ..models.cloned_from import ClonedFrom

        d = dict(src_dict)
        field_entity = cast(Literal["Attachment"], d.pop("_entity"))
        if field_entity != "Attachment":
            raise ValueError(
                f"_entity must match const 'Attachment', got '{field_entity}'"
            )

        field_id = d.pop("_id")

        field_version = d.pop("_version")

        def _parse_image(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        image = _parse_image(d.pop("image"))

        def _parse_memo(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        memo = _parse_memo(d.pop("memo"))

        mime_type = d.pop("mimeType")

        _field_blobs = d.pop("_blobs", UNSET)
        field_blobs: AttachmentRecordBlobs | Unset
        if isinstance(_field_blobs, Unset):
            field_blobs = UNSET
        else:
            field_blobs = AttachmentRecordBlobs.from_dict(_field_blobs)

        _field_cloned_from = d.pop("_clonedFrom", UNSET)
        field_cloned_from: ClonedFrom | Unset
        if isinstance(_field_cloned_from, Unset):
            field_cloned_from = UNSET
        else:
            field_cloned_from = ClonedFrom.from_dict(_field_cloned_from)

        attachment_record = cls(
            field_entity=field_entity,
            field_id=field_id,
            field_version=field_version,
            image=image,
            memo=memo,
            mime_type=mime_type,
            field_blobs=field_blobs,
            field_cloned_from=field_cloned_from,
        )

        attachment_record.additional_properties = d
        return attachment_record

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
