from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.list_item_data_response_200 import ListItemDataResponse200
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    after: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    order: str | Unset = UNSET,
    count: bool | Unset = False,
    create_date: str | Unset = UNSET,
    value: str | Unset = UNSET,
    amount: str | Unset = UNSET,
    item: str | Unset = UNSET,
    memo: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["after"] = after

    params["cursor"] = cursor

    params["order"] = order

    params["count"] = count

    params["createDate"] = create_date

    params["value"] = value

    params["amount"] = amount

    params["item"] = item

    params["memo"] = memo

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/itemdata",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListItemDataResponse200 | ProblemAnswer:
    if response.status_code == 200:
        response_200 = ListItemDataResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ProblemAnswer.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ProblemAnswer.from_dict(response.json())

        return response_401

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
) -> Response[ListItemDataResponse200 | ProblemAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
    after: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    order: str | Unset = UNSET,
    count: bool | Unset = False,
    create_date: str | Unset = UNSET,
    value: str | Unset = UNSET,
    amount: str | Unset = UNSET,
    item: str | Unset = UNSET,
    memo: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[ListItemDataResponse200 | ProblemAnswer]:
    """List itemdata.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        create_date (str | Unset):
        value (str | Unset):
        amount (str | Unset):
        item (str | Unset):
        memo (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListItemDataResponse200 | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        limit=limit,
        after=after,
        cursor=cursor,
        order=order,
        count=count,
        create_date=create_date,
        value=value,
        amount=amount,
        item=item,
        memo=memo,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
    after: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    order: str | Unset = UNSET,
    count: bool | Unset = False,
    create_date: str | Unset = UNSET,
    value: str | Unset = UNSET,
    amount: str | Unset = UNSET,
    item: str | Unset = UNSET,
    memo: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> ListItemDataResponse200 | ProblemAnswer | None:
    """List itemdata.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        create_date (str | Unset):
        value (str | Unset):
        amount (str | Unset):
        item (str | Unset):
        memo (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListItemDataResponse200 | ProblemAnswer
    """

    return sync_detailed(
        client=client,
        limit=limit,
        after=after,
        cursor=cursor,
        order=order,
        count=count,
        create_date=create_date,
        value=value,
        amount=amount,
        item=item,
        memo=memo,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
    after: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    order: str | Unset = UNSET,
    count: bool | Unset = False,
    create_date: str | Unset = UNSET,
    value: str | Unset = UNSET,
    amount: str | Unset = UNSET,
    item: str | Unset = UNSET,
    memo: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[ListItemDataResponse200 | ProblemAnswer]:
    """List itemdata.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        create_date (str | Unset):
        value (str | Unset):
        amount (str | Unset):
        item (str | Unset):
        memo (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListItemDataResponse200 | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        limit=limit,
        after=after,
        cursor=cursor,
        order=order,
        count=count,
        create_date=create_date,
        value=value,
        amount=amount,
        item=item,
        memo=memo,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
    after: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    order: str | Unset = UNSET,
    count: bool | Unset = False,
    create_date: str | Unset = UNSET,
    value: str | Unset = UNSET,
    amount: str | Unset = UNSET,
    item: str | Unset = UNSET,
    memo: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> ListItemDataResponse200 | ProblemAnswer | None:
    """List itemdata.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        create_date (str | Unset):
        value (str | Unset):
        amount (str | Unset):
        item (str | Unset):
        memo (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListItemDataResponse200 | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            after=after,
            cursor=cursor,
            order=order,
            count=count,
            create_date=create_date,
            value=value,
            amount=amount,
            item=item,
            memo=memo,
            x_request_id=x_request_id,
        )
    ).parsed
