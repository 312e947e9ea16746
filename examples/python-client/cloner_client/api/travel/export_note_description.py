from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    id: int,
    *,
    exclude: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["exclude"] = exclude

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/descriptions/{id}/export".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> File | ProblemAnswer:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

        return response_200

    if response.status_code == 401:
        response_401 = ProblemAnswer.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ProblemAnswer.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ProblemAnswer.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = ProblemAnswer.from_dict(response.json())

        return response_422

    response_default = ProblemAnswer.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[File | ProblemAnswer]:
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
    exclude: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[File | ProblemAnswer]:
    """The graph a clone of a NoteDescription would copy, as a graph document (streamed).

    Args:
        id (int):
        exclude (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        exclude=exclude,
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
    exclude: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> File | ProblemAnswer | None:
    """The graph a clone of a NoteDescription would copy, as a graph document (streamed).

    Args:
        id (int):
        exclude (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | ProblemAnswer
    """

    return sync_detailed(
        id=id,
        client=client,
        exclude=exclude,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    exclude: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[File | ProblemAnswer]:
    """The graph a clone of a NoteDescription would copy, as a graph document (streamed).

    Args:
        id (int):
        exclude (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        exclude=exclude,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    exclude: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> File | ProblemAnswer | None:
    """The graph a clone of a NoteDescription would copy, as a graph document (streamed).

    Args:
        id (int):
        exclude (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            exclude=exclude,
            x_request_id=x_request_id,
        )
    ).parsed
