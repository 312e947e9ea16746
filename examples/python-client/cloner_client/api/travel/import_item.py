from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.import_result import ImportResult
from ...models.job import Job
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    body: File,
    dry_run: bool | Unset = False,
    return_ids: bool | Unset = False,
    create_missing: bool | Unset = False,
    exclude: str | Unset = UNSET,
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

    params: dict[str, Any] = {}

    params["dryRun"] = dry_run

    params["returnIds"] = return_ids

    params["createMissing"] = create_missing

    params["exclude"] = exclude

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/items/import",
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/vnd.cloner.graph+x-ndjson"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ImportResult | Job | ProblemAnswer:
    if response.status_code == 200:
        response_200 = ImportResult.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = ImportResult.from_dict(response.json())

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
) -> Response[ImportResult | Job | ProblemAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: File,
    dry_run: bool | Unset = False,
    return_ids: bool | Unset = False,
    create_missing: bool | Unset = False,
    exclude: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[ImportResult | Job | ProblemAnswer]:
    """Create the graph of a document whose root is a Item, with new ids, as a clone would.

    Args:
        dry_run (bool | Unset):  Default: False.
        return_ids (bool | Unset):  Default: False.
        create_missing (bool | Unset):  Default: False.
        exclude (str | Unset):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ImportResult | Job | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        body=body,
        dry_run=dry_run,
        return_ids=return_ids,
        create_missing=create_missing,
        exclude=exclude,
        idempotency_key=idempotency_key,
        prefer=prefer,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: File,
    dry_run: bool | Unset = False,
    return_ids: bool | Unset = False,
    create_missing: bool | Unset = False,
    exclude: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> ImportResult | Job | ProblemAnswer | None:
    """Create the graph of a document whose root is a Item, with new ids, as a clone would.

    Args:
        dry_run (bool | Unset):  Default: False.
        return_ids (bool | Unset):  Default: False.
        create_missing (bool | Unset):  Default: False.
        exclude (str | Unset):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ImportResult | Job | ProblemAnswer
    """

    return sync_detailed(
        client=client,
        body=body,
        dry_run=dry_run,
        return_ids=return_ids,
        create_missing=create_missing,
        exclude=exclude,
        idempotency_key=idempotency_key,
        prefer=prefer,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: File,
    dry_run: bool | Unset = False,
    return_ids: bool | Unset = False,
    create_missing: bool | Unset = False,
    exclude: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[ImportResult | Job | ProblemAnswer]:
    """Create the graph of a document whose root is a Item, with new ids, as a clone would.

    Args:
        dry_run (bool | Unset):  Default: False.
        return_ids (bool | Unset):  Default: False.
        create_missing (bool | Unset):  Default: False.
        exclude (str | Unset):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ImportResult | Job | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        body=body,
        dry_run=dry_run,
        return_ids=return_ids,
        create_missing=create_missing,
        exclude=exclude,
        idempotency_key=idempotency_key,
        prefer=prefer,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: File,
    dry_run: bool | Unset = False,
    return_ids: bool | Unset = False,
    create_missing: bool | Unset = False,
    exclude: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> ImportResult | Job | ProblemAnswer | None:
    """Create the graph of a document whose root is a Item, with new ids, as a clone would.

    Args:
        dry_run (bool | Unset):  Default: False.
        return_ids (bool | Unset):  Default: False.
        create_missing (bool | Unset):  Default: False.
        exclude (str | Unset):
        idempotency_key (str | Unset):
        prefer (str | Unset):
        x_request_id (str | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ImportResult | Job | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            dry_run=dry_run,
            return_ids=return_ids,
            create_missing=create_missing,
            exclude=exclude,
            idempotency_key=idempotency_key,
            prefer=prefer,
            x_request_id=x_request_id,
        )
    ).parsed
