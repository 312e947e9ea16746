from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NoteCloneRequestCopiesType1ItemSet")


@_attrs_define
class NoteCloneRequestCopiesType1ItemSet:
    """
    Attributes:
        create_date (datetime.datetime | Unset):
        data (None | str | Unset):
        id (UUID | Unset):
        index (int | Unset):
        is_pinned (bool | Unset):
        name (None | str | Unset):
        note_description (int | None | Unset):
        settings (Any | Unset): Any JSON value, stored as written.
        share_link (None | str | Unset):
        template (int | None | Unset):
    """

    create_date: datetime.datetime | Unset = UNSET
    data: None | str | Unset = UNSET
    id: UUID | Unset = UNSET
    index: int | Unset = UNSET
    is_pinned: bool | Unset = UNSET
    name: None | str | Unset = UNSET
    note_description: int | None | Unset = UNSET
    settings: Any | Unset = UNSET
    share_link: None | str | Unset = UNSET
    template: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        create_date: str | Unset = UNSET
        if not isinstance(self.create_date, Unset):
            create_date = self.create_date.isoformat()

        data: None | str | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        else:
            data = self.data

        id: str | Unset = UNSET
        if not isinstance(self.id, Unset):
            id = str(self.id)

        index = self.index

        is_pinned = self.is_pinned

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        note_description: int | None | Unset
        if isinstance(self.note_description, Unset):
            note_description = UNSET
        else:
            note_description = self.note_description

        settings = self.settings

        share_link: None | str | Unset
        if isinstance(self.share_link, Unset):
            share_link = UNSET
        else:
            share_link = self.share_link

        template: int | None | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        else:
            template = self.template

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if create_date is not UNSET:
            field_dict["createDate"] = create_date
        if data is not UNSET:
            field_dict["data"] = data
        if id is not UNSET:
            field_dict["id"] = id
        if index is not UNSET:
            field_dict["index"] = index
        if is_pinned is not UNSET:
            field_dict["isPinned"] = is_pinned
        if name is not UNSET:
            field_dict["name"] = name
        if note_description is not UNSET:
            field_dict["noteDescription"] = note_description
        if settings is not UNSET:
            field_dict["settings"] = settings
        if share_link is not UNSET:
            field_dict["shareLink"] = share_link
        if template is not UNSET:
            field_dict["template"] = template

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _create_date = d.pop("createDate", UNSET)
        create_date: datetime.datetime | Unset
        if isinstance(_create_date, Unset):
            create_date = UNSET
        else:
            create_date = datetime.datetime.fromisoformat(_create_date)

        def _parse_data(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        data = _parse_data(d.pop("data", UNSET))

        _id = d.pop("id", UNSET)
        id: UUID | Unset
        if isinstance(_id, Unset):
            id = UNSET
        else:
            id = UUID(_id)

        index = d.pop("index", UNSET)

        is_pinned = d.pop("isPinned", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_note_description(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        note_description = _parse_note_description(d.pop("noteDescription", UNSET))

        settings = d.pop("settings", UNSET)

        def _parse_share_link(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        share_link = _parse_share_link(d.pop("shareLink", UNSET))

        def _parse_template(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        note_clone_request_copies_type_1_item_set = cls(
            create_date=create_date,
            data=data,
            id=id,
            index=index,
            is_pinned=is_pinned,
            name=name,
            note_description=note_description,
            settings=settings,
            share_link=share_link,
            template=template,
        )

        return note_clone_request_copies_type_1_item_set
