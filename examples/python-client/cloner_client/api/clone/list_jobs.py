from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.job_page import JobPage
from ...models.job_status import JobStatus
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: JobStatus | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/jobs",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> JobPage | ProblemAnswer:
    if response.status_code == 200:
        response_200 = JobPage.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = ProblemAnswer.from_dict(response.json())

        return response_401

    if response.status_code == 422:
        response_422 = ProblemAnswer.from_dict(response.json())

        return response_422

    response_default = ProblemAnswer.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[JobPage | ProblemAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: JobStatus | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[JobPage | ProblemAnswer]:
    """Asynchronous jobs (clones and imports) of every replica, newest first.

     Paged like record lists: follow `next` until it is null. A finished job is kept for
    `jobRetentionSeconds` (24 h by default) from when it finished, then forgotten. An unknown
    parameter, a value of the wrong form, or a parameter given twice answers 422 naming it.

    Args:
        status (JobStatus | Unset): `cancelled`: stopped by `DELETE /jobs/{id}` before it
            committed; nothing of it was written.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobPage | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    status: JobStatus | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> JobPage | ProblemAnswer | None:
    """Asynchronous jobs (clones and imports) of every replica, newest first.

     Paged like record lists: follow `next` until it is null. A finished job is kept for
    `jobRetentionSeconds` (24 h by default) from when it finished, then forgotten. An unknown
    parameter, a value of the wrong form, or a parameter given twice answers 422 naming it.

    Args:
        status (JobStatus | Unset): `cancelled`: stopped by `DELETE /jobs/{id}` before it
            committed; nothing of it was written.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobPage | ProblemAnswer
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        cursor=cursor,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: JobStatus | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[JobPage | ProblemAnswer]:
    """Asynchronous jobs (clones and imports) of every replica, newest first.

     Paged like record lists: follow `next` until it is null. A finished job is kept for
    `jobRetentionSeconds` (24 h by default) from when it finished, then forgotten. An unknown
    parameter, a value of the wrong form, or a parameter given twice answers 422 naming it.

    Args:
        status (JobStatus | Unset): `cancelled`: stopped by `DELETE /jobs/{id}` before it
            committed; nothing of it was written.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobPage | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    status: JobStatus | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> JobPage | ProblemAnswer | None:
    """Asynchronous jobs (clones and imports) of every replica, newest first.

     Paged like record lists: follow `next` until it is null. A finished job is kept for
    `jobRetentionSeconds` (24 h by default) from when it finished, then forgotten. An unknown
    parameter, a value of the wrong form, or a parameter given twice answers 422 naming it.

    Args:
        status (JobStatus | Unset): `cancelled`: stopped by `DELETE /jobs/{id}` before it
            committed; nothing of it was written.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobPage | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            cursor=cursor,
            x_request_id=x_request_id,
        )
    ).parsed
