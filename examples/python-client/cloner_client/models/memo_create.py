from __future__ import annotations

import datetime
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
    from ..models.attachment_create_under_memo import AttachmentCreateUnderMemo
    from ..models.item_data_create import ItemDataCreate
    from ..models.note_create import NoteCreate
    from ..models.tag_create import TagCreate


T = TypeVar("T", bound="MemoCreate")


@_attrs_define
class MemoCreate:
    """
    Attributes:
        create_date (datetime.datetime):
        field_entity (Literal['Memo'] | Unset):
        attachments (list[AttachmentCreateUnderMemo | int] | Unset):
        item_data (int | ItemDataCreate | None | Unset):
        note (int | None | NoteCreate | Unset):
        tags (list[int | TagCreate] | Unset):
        text (None | str | Unset):
    """

    create_date: datetime.datetime
    field_entity: Literal["Memo"] | Unset = UNSET
    attachments: list[AttachmentCreateUnderMemo | int] | Unset = UNSET
    item_data: int | ItemDataCreate | None | Unset = UNSET
    note: int | None | NoteCreate | Unset = UNSET
    tags: list[int | TagCreate] | Unset = UNSET
    text: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.attachment_create_under_memo import AttachmentCreateUnderMemo
        from ..models.item_data_create import ItemDataCreate
        from ..models.note_create import NoteCreate
        from ..models.tag_create import TagCreate

        create_date = self.create_date.isoformat()

        field_entity = self.field_entity

        attachments: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = []
            for attachments_item_data in self.attachments:
                attachments_item: dict[str, Any] | int
                if isinstance(attachments_item_data, AttachmentCreateUnderMemo):
                    attachments_item = attachments_item_data.to_dict()
                else:
                    attachments_item = attachments_item_data
                attachments.append(attachments_item)

        item_data: dict[str, Any] | int | None | Unset
        if isinstance(self.item_data, Unset):
            item_data = UNSET
        elif isinstance(self.item_data, ItemDataCreate):
            item_data = self.item_data.to_dict()
        else:
            item_data = self.item_data

        note: dict[str, Any] | int | None | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        elif isinstance(self.note, NoteCreate):
            note = self.note.to_dict()
        else:
            note = self.note

        tags: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = []
            for tags_item_data in self.tags:
                tags_item: dict[str, Any] | int
                if isinstance(tags_item_data, TagCreate):
                    tags_item = tags_item_data.to_dict()
                else:
                    tags_item = tags_item_data
                tags.append(tags_item)

        text: None | str | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        else:
            text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createDate": create_date,
            }
        )
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if item_data is not UNSET:
            field_dict["itemData"] = item_data
        if note is not UNSET:
            field_dict["note"] = note
        if tags is not UNSET:
            field_dict["tags"] = tags
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attachment_create_under_memo import AttachmentCreateUnderMemo
        from ..models.item_data_create import ItemDataCreate
        from ..models.note_create import NoteCreate
        from ..models.tag_create import TagCreate

        d = dict(src_dict)
        create_date = datetime.datetime.fromisoformat(d.pop("createDate"))

        field_entity = cast(Literal["Memo"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Memo" and not isinstance(field_entity, Unset):
            raise ValueError(f"_entity must match const 'Memo', got '{field_entity}'")

        _attachments = d.pop("attachments", UNSET)
        attachments: list[AttachmentCreateUnderMemo | int] | Unset = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:

                def _parse_attachments_item(
                    data: object,
                ) -> AttachmentCreateUnderMemo | int:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        attachments_item_type_1 = AttachmentCreateUnderMemo.from_dict(
                            data
                        )

                        return attachments_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(AttachmentCreateUnderMemo | int, data)

                attachments_item = _parse_attachments_item(attachments_item_data)

                attachments.append(attachments_item)

        def _parse_item_data(data: object) -> int | ItemDataCreate | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                item_data_type_1 = ItemDataCreate.from_dict(data)

                return item_data_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | ItemDataCreate | None | Unset, data)

        item_data = _parse_item_data(d.pop("itemData", UNSET))

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

        _tags = d.pop("tags", UNSET)
        tags: list[int | TagCreate] | Unset = UNSET
        if _tags is not UNSET:
            tags = []
            for tags_item_data in _tags:

                def _parse_tags_item(data: object) -> int | TagCreate:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        tags_item_type_1 = TagCreate.from_dict(data)

                        return tags_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | TagCreate, data)

                tags_item = _parse_tags_item(tags_item_data)

                tags.append(tags_item)

        def _parse_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text = _parse_text(d.pop("text", UNSET))

        memo_create = cls(
            create_date=create_date,
            field_entity=field_entity,
            attachments=attachments,
            item_data=item_data,
            note=note,
            tags=tags,
            text=text,
        )

        return memo_create
