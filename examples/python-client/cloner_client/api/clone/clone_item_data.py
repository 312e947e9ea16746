from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.clone_result import CloneResult
from ...models.item_data_clone_request import ItemDataCloneRequest
from ...models.job import Job
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: ItemDataCloneRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(prefer, Unset):
        headers["Prefer"] = prefer

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/itemdata/{id}/clone".format(
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
) -> CloneResult | Job | ProblemAnswer:
    if response.status_code == 200:
        response_200 = CloneResult.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CloneResult.from_dict(response.json())

        return response_201

    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())

        return response_202

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
) -> Response[CloneResult | Job | ProblemAnswer]:
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
    body: ItemDataCloneRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[CloneResult | Job | ProblemAnswer]:
    """Deep-clone a ItemData and what it owns, in one transaction.

    Args:
        id (int):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (ItemDataCloneRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CloneResult | Job | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
        prefer=prefer,
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
    body: ItemDataCloneRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> CloneResult | Job | ProblemAnswer | None:
    """Deep-clone a ItemData and what it owns, in one transaction.

    Args:
        id (int):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (ItemDataCloneRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CloneResult | Job | ProblemAnswer
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        prefer=prefer,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    body: ItemDataCloneRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[CloneResult | Job | ProblemAnswer]:
    """Deep-clone a ItemData and what it owns, in one transaction.

    Args:
        id (int):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (ItemDataCloneRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CloneResult | Job | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
        prefer=prefer,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient | Client,
    body: ItemDataCloneRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> CloneResult | Job | ProblemAnswer | None:
    """Deep-clone a ItemData and what it owns, in one transaction.

    Args:
        id (int):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (ItemDataCloneRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CloneResult | Job | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            prefer=prefer,
            x_request_id=x_request_id,
        )
    ).parsed
