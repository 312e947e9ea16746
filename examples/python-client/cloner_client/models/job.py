from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_status import JobStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clone_result import CloneResult
    from ..models.job_progress import JobProgress
    from ..models.problem import Problem


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """
    Attributes:
        id (str):
        status (JobStatus): `cancelled`: stopped by `DELETE /jobs/{id}` before it committed; nothing of it was written.
        progress (JobProgress):
        result (CloneResult | Unset):  Example: {'source': {'entity': 'Note', 'id': 42}, 'clone': {'entity': 'Note',
            'id': 57}, 'created': {'Item': 1000, 'ItemData': 1000, 'Note': 1}, 'linked': {'Tag': 120}, 'ids': {'Item':
            {'100': 2001}, 'Note': {'42': 57}}, 'dryRun': False}.
        error (Problem | Unset): RFC 9457 problem details as a job keeps them (`requestId` absent); the properties of
            `ProblemAnswer`. Example: {'type': 'urn:cloner:problem:validation_failed', 'title': 'Unprocessable Content',
            'status': 422, 'detail': 'index: expected an integer, got 1.5', 'code': 'validation_failed', 'requestId':
            '4b0c8f1e', 'field': 'index', 'errors': [{'field': 'index', 'message': 'expected an integer, got 1.5'}]}.
    """

    id: str
    status: JobStatus
    progress: JobProgress
    result: CloneResult | Unset = UNSET
    error: Problem | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        progress = self.progress.to_dict()

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.error, Unset):
            error = self.error.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "progress": progress,
            }
        )
        if result is not UNSET:
            field_dict["result"] = result
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.clone_result import CloneResult
        from ..models.job_progress import JobProgress
        from ..models.problem import Problem

        d = dict(src_dict)
        id = d.pop("id")

        status = JobStatus(d.pop("status"))

        progress = JobProgress.from_dict(d.pop("progress"))

        _result = d.pop("result", UNSET)
        result: CloneResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = CloneResult.from_dict(_result)

        _error = d.pop("error", UNSET)
        error: Problem | Unset
        if isinstance(_error, Unset):
            error = UNSET
        else:
            error = Problem.from_dict(_error)

        job = cls(
            id=id,
            status=status,
            progress=progress,
            result=result,
            error=error,
        )

        job.additional_properties = d
        return job

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
