from http import HTTPStatus
from typing import Any, cast

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/openapi.yaml",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ProblemAnswer:
    if response.status_code == 200:
        response_200 = cast(Any, response.text)
        return response_200

    if response.status_code == 401:
        response_401 = ProblemAnswer.from_dict(response.json())

        return response_401

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
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[Any | ProblemAnswer]:
    """This document, specialised to the loaded model.

     The file in the repository describes records generically (`/{collection}`). The service
    answers it with one set of operations per collection (`/notes`, `/notes/{id}`,
    `/notes/{id}/clone`, operation ids such as `createNote`) and exact schemas per entity
    (`NoteRecord`, `NoteCreate`, `NoteUpdate`, `NoteCloneRequest`: the entity's properties and no
    others), and with `security` saying whether this deployment requires a key.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Any | ProblemAnswer | None:
    """This document, specialised to the loaded model.

     The file in the repository describes records generically (`/{collection}`). The service
    answers it with one set of operations per collection (`/notes`, `/notes/{id}`,
    `/notes/{id}/clone`, operation ids such as `createNote`) and exact schemas per entity
    (`NoteRecord`, `NoteCreate`, `NoteUpdate`, `NoteCloneRequest`: the entity's properties and no
    others), and with `security` saying whether this deployment requires a key.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ProblemAnswer
    """

    return sync_detailed(
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[Any | ProblemAnswer]:
    """This document, specialised to the loaded model.

     The file in the repository describes records generically (`/{collection}`). The service
    answers it with one set of operations per collection (`/notes`, `/notes/{id}`,
    `/notes/{id}/clone`, operation ids such as `createNote`) and exact schemas per entity
    (`NoteRecord`, `NoteCreate`, `NoteUpdate`, `NoteCloneRequest`: the entity's properties and no
    others), and with `security` saying whether this deployment requires a key.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Any | ProblemAnswer | None:
    """This document, specialised to the loaded model.

     The file in the repository describes records generically (`/{collection}`). The service
    answers it with one set of operations per collection (`/notes`, `/notes/{id}`,
    `/notes/{id}/clone`, operation ids such as `createNote`) and exact schemas per entity
    (`NoteRecord`, `NoteCreate`, `NoteUpdate`, `NoteCloneRequest`: the entity's properties and no
    others), and with `security` saying whether this deployment requires a key.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
