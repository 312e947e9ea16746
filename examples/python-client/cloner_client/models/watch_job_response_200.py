from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.watch_job_response_200_event import WatchJobResponse200Event

T = TypeVar("T", bound="WatchJobResponse200")


@_attrs_define
class WatchJobResponse200:
    """
    Attributes:
        event (WatchJobResponse200Event):
        data (str): The job document (as `GET /jobs/{id}` answers it), one line of JSON.
    """

    event: WatchJobResponse200Event
    data: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event.value

        data = self.data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event = WatchJobResponse200Event(d.pop("event"))

        data = d.pop("data")

        watch_job_response_200 = cls(
            event=event,
            data=data,
        )

        watch_job_response_200.additional_properties = d
        return watch_job_response_200

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
