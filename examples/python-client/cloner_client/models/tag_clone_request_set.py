from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TagCloneRequestSet")


@_attrs_define
class TagCloneRequestSet:
    """
    Attributes:
        color (None | str | Unset):
        memos (list[int] | Unset):
        name (str | Unset):
    """

    color: None | str | Unset = UNSET
    memos: list[int] | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        color: None | str | Unset
        if isinstance(self.color, Unset):
            color = UNSET
        else:
            color = self.color

        memos: list[int] | Unset = UNSET
        if not isinstance(self.memos, Unset):
            memos = self.memos

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if color is not UNSET:
            field_dict["color"] = color
        if memos is not UNSET:
            field_dict["memos"] = memos
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        color = _parse_color(d.pop("color", UNSET))

        memos = cast(list[int], d.pop("memos", UNSET))

        name = d.pop("name", UNSET)

        tag_clone_request_set = cls(
            color=color,
            memos=memos,
            name=name,
        )

        return tag_clone_request_set
