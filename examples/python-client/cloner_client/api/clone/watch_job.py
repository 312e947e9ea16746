from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem_answer import ProblemAnswer
from ...models.watch_job_response_200 import WatchJobResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/jobs/{id}/events".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ProblemAnswer | WatchJobResponse200:
    if response.status_code == 200:
        response_200 = WatchJobResponse200.from_dict(response.text)

        return response_200

    if response.status_code == 401:
        response_401 = ProblemAnswer.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ProblemAnswer.from_dict(response.json())

        return response_404

    response_default = ProblemAnswer.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ProblemAnswer | WatchJobResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[ProblemAnswer | WatchJobResponse200]:
    """A job's progress as server-sent events, until it ends.

     `event: progress` with the job document each time its progress advances (at most every
    100 ms; for a job running on another replica its row is read every 500 ms and only its end is
    sent), a `: heartbeat` comment after 15 s without an event, and last an event named after the
    final status (`succeeded`, `failed`, `cancelled`) with the job document, after which the
    stream ends. A finished job sends its last event at once. Each event's `data` is one line of JSON.

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemAnswer | WatchJobResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> ProblemAnswer | WatchJobResponse200 | None:
    """A job's progress as server-sent events, until it ends.

     `event: progress` with the job document each time its progress advances (at most every
    100 ms; for a job running on another replica its row is read every 500 ms and only its end is
    sent), a `: heartbeat` comment after 15 s without an event, and last an event named after the
    final status (`succeeded`, `failed`, `cancelled`) with the job document, after which the
    stream ends. A finished job sends its last event at once. Each event's `data` is one line of JSON.

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemAnswer | WatchJobResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[ProblemAnswer | WatchJobResponse200]:
    """A job's progress as server-sent events, until it ends.

     `event: progress` with the job document each time its progress advances (at most every
    100 ms; for a job running on another replica its row is read every 500 ms and only its end is
    sent), a `: heartbeat` comment after 15 s without an event, and last an event named after the
    final status (`succeeded`, `failed`, `cancelled`) with the job document, after which the
    stream ends. A finished job sends its last event at once. Each event's `data` is one line of JSON.

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemAnswer | WatchJobResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> ProblemAnswer | WatchJobResponse200 | None:
    """A job's progress as server-sent events, until it ends.

     `event: progress` with the job document each time its progress advances (at most every
    100 ms; for a job running on another replica its row is read every 500 ms and only its end is
    sent), a `: heartbeat` comment after 15 s without an event, and last an event named after the
    final status (`succeeded`, `failed`, `cancelled`) with the job document, after which the
    stream ends. A finished job sends its last event at once. Each event's `data` is one line of JSON.

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemAnswer | WatchJobResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
