from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/descriptions/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ProblemAnswer:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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

    response_default = ProblemAnswer.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | ProblemAnswer]:
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
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any | ProblemAnswer]:
    """Delete a NoteDescription with the delete rules.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
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
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Any | ProblemAnswer | None:
    """Delete a NoteDescription with the delete rules.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ProblemAnswer
    """

    return sync_detailed(
        id=id,
        client=client,
        if_match=if_match,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any | ProblemAnswer]:
    """Delete a NoteDescription with the delete rules.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        if_match=if_match,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    if_match: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Any | ProblemAnswer | None:
    """Delete a NoteDescription with the delete rules.

    Args:
        id (int):
        if_match (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            if_match=if_match,
            x_request_id=x_request_id,
        )
    ).parsed
