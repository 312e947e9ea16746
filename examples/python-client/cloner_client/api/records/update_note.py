from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.note_record import NoteRecord
from ...models.note_update import NoteUpdate
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: NoteUpdate | Unset = UNSET,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/notes/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> NoteRecord | ProblemAnswer:
    if response.status_code == 200:
        response_200 = NoteRecord.from_dict(response.json())

        return response_200

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

    if response.status_code == 412:
        response_412 = ProblemAnswer.from_dict(response.json())

        return response_412

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
) -> Response[NoteRecord | ProblemAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    body: NoteUpdate | Unset = UNSET,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[NoteRecord | ProblemAnswer]:
    """Update a Note in part.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):
        body (NoteUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NoteRecord | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    body: NoteUpdate | Unset = UNSET,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> NoteRecord | ProblemAnswer | None:
    """Update a Note in part.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):
        body (NoteUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NoteRecord | ProblemAnswer
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        if_match=if_match,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    body: NoteUpdate | Unset = UNSET,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[NoteRecord | ProblemAnswer]:
    """Update a Note in part.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):
        body (NoteUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NoteRecord | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    body: NoteUpdate | Unset = UNSET,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> NoteRecord | ProblemAnswer | None:
    """Update a Note in part.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):
        body (NoteUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NoteRecord | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            if_match=if_match,
            x_request_id=x_request_id,
        )
    ).parsed
