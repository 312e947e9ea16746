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


T = TypeVar("T", bound="TagCreate")


@_attrs_define
class TagCreate:
    """
    Attributes:
        name (str): Unique: at most 2000 bytes (UTF-8 for text, decoded for binary), else 422 naming the field.
        field_entity (Literal['Tag'] | Unset):
        color (None | str | Unset):
        memos (list[int | MemoCreate] | Unset):
    """

    name: str
    field_entity: Literal["Tag"] | Unset = UNSET
    color: None | str | Unset = UNSET
    memos: list[int | MemoCreate] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.memo_create import MemoCreate

        name = self.name

        field_entity = self.field_entity

        color: None | str | Unset
        if isinstance(self.color, Unset):
            color = UNSET
        else:
            color = self.color

        memos: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.memos, Unset):
            memos = []
            for memos_item_data in self.memos:
                memos_item: dict[str, Any] | int
                if isinstance(memos_item_data, MemoCreate):
                    memos_item = memos_item_data.to_dict()
                else:
                    memos_item = memos_item_data
                memos.append(memos_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if field_entity is not UNSET:
            field_dict["_entity"] = field_entity
        if color is not UNSET:
            field_dict["color"] = color
        if memos is not UNSET:
            field_dict["memos"] = memos

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.memo_create import MemoCreate

        d = dict(src_dict)
        name = d.pop("name")

        field_entity = cast(Literal["Tag"] | Unset, d.pop("_entity", UNSET))
        if field_entity != "Tag" and not isinstance(field_entity, Unset):
            raise ValueError(f"_entity must match const 'Tag', got '{field_entity}'")

        def _parse_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        color = _parse_color(d.pop("color", UNSET))

        _memos = d.pop("memos", UNSET)
        memos: list[int | MemoCreate] | Unset = UNSET
        if _memos is not UNSET:
            memos = []
            for memos_item_data in _memos:

                def _parse_memos_item(data: object) -> int | MemoCreate:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        memos_item_type_1 = MemoCreate.from_dict(data)

                        return memos_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | MemoCreate, data)

                memos_item = _parse_memos_item(memos_item_data)

                memos.append(memos_item)

        tag_create = cls(
            name=name,
            field_entity=field_entity,
            color=color,
            memos=memos,
        )

        return tag_create
