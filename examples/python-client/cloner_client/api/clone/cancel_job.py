from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.job import Job
from ...models.problem_answer import ProblemAnswer
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
        "method": "delete",
        "url": "/jobs/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Job | ProblemAnswer:
    if response.status_code == 200:
        response_200 = Job.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())

        return response_202

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

    response_default = ProblemAnswer.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Job | ProblemAnswer]:
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
) -> Response[Job | ProblemAnswer]:
    """Cancel a queued or running job.

     A queued job never starts; a running one has its running statement interrupted and its
    transaction rolled back: nothing it would have written remains, its status becomes
    `cancelled`, and its `Idempotency-Key` is released (a retry with the key runs again). Once the
    job's transaction is committing the cancel loses (409) and the job succeeds. A job running on
    another replica is stopped there, by the replica that runs it, within a third of the job lease
    (202 meanwhile).

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Job | ProblemAnswer]
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
) -> Job | ProblemAnswer | None:
    """Cancel a queued or running job.

     A queued job never starts; a running one has its running statement interrupted and its
    transaction rolled back: nothing it would have written remains, its status becomes
    `cancelled`, and its `Idempotency-Key` is released (a retry with the key runs again). Once the
    job's transaction is committing the cancel loses (409) and the job succeeds. A job running on
    another replica is stopped there, by the replica that runs it, within a third of the job lease
    (202 meanwhile).

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Job | ProblemAnswer
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
) -> Response[Job | ProblemAnswer]:
    """Cancel a queued or running job.

     A queued job never starts; a running one has its running statement interrupted and its
    transaction rolled back: nothing it would have written remains, its status becomes
    `cancelled`, and its `Idempotency-Key` is released (a retry with the key runs again). Once the
    job's transaction is committing the cancel loses (409) and the job succeeds. A job running on
    another replica is stopped there, by the replica that runs it, within a third of the job lease
    (202 meanwhile).

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Job | ProblemAnswer]
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
) -> Job | ProblemAnswer | None:
    """Cancel a queued or running job.

     A queued job never starts; a running one has its running statement interrupted and its
    transaction rolled back: nothing it would have written remains, its status becomes
    `cancelled`, and its `Idempotency-Key` is released (a retry with the key runs again). Once the
    job's transaction is committing the cancel loses (409) and the job succeeds. A job running on
    another replica is stopped there, by the replica that runs it, within a third of the job lease
    (202 meanwhile).

    Args:
        id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Job | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
