from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_error import FieldError


T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """RFC 9457 problem details as a job keeps them (`requestId` absent); the properties of `ProblemAnswer`.

    Example:
        {'type': 'urn:cloner:problem:validation_failed', 'title': 'Unprocessable Content', 'status': 422, 'detail':
            'index: expected an integer, got 1.5', 'code': 'validation_failed', 'requestId': '4b0c8f1e', 'field': 'index',
            'errors': [{'field': 'index', 'message': 'expected an integer, got 1.5'}]}

    Attributes:
        type_ (str): A URN naming the problem kind, `urn:cloner:problem:<code>`.
        title (str): The status's reason phrase (RFC 9110 §15).
        status (int):
        detail (str):
        code (str): Stable machine-readable code: `bad_request`, `not_found`, `invalid_json`, `validation_failed`,
            `conflict`, `precondition_failed`, `payload_too_large`, `unauthorized`, `forbidden`,
            `method_not_allowed`, `unsupported_media_type`, `request_timeout`, `idempotency_key_reused`, `in_progress`,
            `too_many_objects`, `service_unavailable`, `database_unavailable`, `internal_error`, `job_interrupted`, and for
            the
            server's own rejections `uri_too_long`, `header_fields_too_large`, `expectation_failed`,
            `not_implemented`, `http_version_not_supported`, or another status's reason phrase in snake
            case (`length_required`).
        request_id (str | Unset): The request's `X-Request-ID`; absent in a job's stored error.
        field (str | Unset): The offending field or property; with several in `errors`, the first of them. `$` is
            the request body as a whole (a JSON array where an object belongs).
        errors (list[FieldError] | Unset): Every offending field, for `validation_failed`.
    """

    type_: str
    title: str
    status: int
    detail: str
    code: str
    request_id: str | Unset = UNSET
    field: str | Unset = UNSET
    errors: list[FieldError] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        code = self.code

        request_id = self.request_id

        field = self.field

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
                "code": code,
            }
        )
        if request_id is not UNSET:
            field_dict["requestId"] = request_id
        if field is not UNSET:
            field_dict["field"] = field
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_error import FieldError

        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        code = d.pop("code")

        request_id = d.pop("requestId", UNSET)

        field = d.pop("field", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: list[FieldError] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = FieldError.from_dict(errors_item_data)

                errors.append(errors_item)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            code=code,
            request_id=request_id,
            field=field,
            errors=errors,
        )

        problem.additional_properties = d
        return problem

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
