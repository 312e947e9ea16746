from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.note_description_create import NoteDescriptionCreate
from ...models.note_description_record import NoteDescriptionRecord
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: NoteDescriptionCreate,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/descriptions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> NoteDescriptionRecord | ProblemAnswer:
    if response.status_code == 201:
        response_201 = NoteDescriptionRecord.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ProblemAnswer.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ProblemAnswer.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ProblemAnswer.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ProblemAnswer.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ProblemAnswer.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ProblemAnswer.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ProblemAnswer.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ProblemAnswer.from_dict(response.json())

        return response_422

    response_default = ProblemAnswer.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[NoteDescriptionRecord | ProblemAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NoteDescriptionCreate,
    x_request_id: str | Unset = UNSET,
) -> Response[NoteDescriptionRecord | ProblemAnswer]:
    """Create a NoteDescription, with nested objects.

    Args:
        x_request_id (str | Unset):
        body (NoteDescriptionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NoteDescriptionRecord | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: NoteDescriptionCreate,
    x_request_id: str | Unset = UNSET,
) -> NoteDescriptionRecord | ProblemAnswer | None:
    """Create a NoteDescription, with nested objects.

    Args:
        x_request_id (str | Unset):
        body (NoteDescriptionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NoteDescriptionRecord | ProblemAnswer
    """

    return sync_detailed(
        client=client,
        body=body,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: NoteDescriptionCreate,
    x_request_id: str | Unset = UNSET,
) -> Response[NoteDescriptionRecord | ProblemAnswer]:
    """Create a NoteDescription, with nested objects.

    Args:
        x_request_id (str | Unset):
        body (NoteDescriptionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NoteDescriptionRecord | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: NoteDescriptionCreate,
    x_request_id: str | Unset = UNSET,
) -> NoteDescriptionRecord | ProblemAnswer | None:
    """Create a NoteDescription, with nested objects.

    Args:
        x_request_id (str | Unset):
        body (NoteDescriptionCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NoteDescriptionRecord | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_request_id=x_request_id,
        )
    ).parsed
