from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.list_note_response_200 import ListNoteResponse200
from ...models.problem_answer import ProblemAnswer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    after: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    order: str | Unset = UNSET,
    count: bool | Unset = False,
    id: str | Unset = UNSET,
    name: str | Unset = UNSET,
    create_date: str | Unset = UNSET,
    index: str | Unset = UNSET,
    data: str | Unset = UNSET,
    is_pinned: str | Unset = UNSET,
    settings: str | Unset = UNSET,
    share_link: str | Unset = UNSET,
    note_description: str | Unset = UNSET,
    template: str | Unset = UNSET,
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

    params["id"] = id

    params["name"] = name

    params["createDate"] = create_date

    params["index"] = index

    params["data"] = data

    params["isPinned"] = is_pinned

    params["settings"] = settings

    params["shareLink"] = share_link

    params["noteDescription"] = note_description

    params["template"] = template

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/notes",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListNoteResponse200 | ProblemAnswer:
    if response.status_code == 200:
        response_200 = ListNoteResponse200.from_dict(response.json())

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
) -> Response[ListNoteResponse200 | ProblemAnswer]:
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
    id: str | Unset = UNSET,
    name: str | Unset = UNSET,
    create_date: str | Unset = UNSET,
    index: str | Unset = UNSET,
    data: str | Unset = UNSET,
    is_pinned: str | Unset = UNSET,
    settings: str | Unset = UNSET,
    share_link: str | Unset = UNSET,
    note_description: str | Unset = UNSET,
    template: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[ListNoteResponse200 | ProblemAnswer]:
    """List notes.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        id (str | Unset):
        name (str | Unset):
        create_date (str | Unset):
        index (str | Unset):
        data (str | Unset):
        is_pinned (str | Unset):
        settings (str | Unset):
        share_link (str | Unset):
        note_description (str | Unset):
        template (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListNoteResponse200 | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        limit=limit,
        after=after,
        cursor=cursor,
        order=order,
        count=count,
        id=id,
        name=name,
        create_date=create_date,
        index=index,
        data=data,
        is_pinned=is_pinned,
        settings=settings,
        share_link=share_link,
        note_description=note_description,
        template=template,
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
    id: str | Unset = UNSET,
    name: str | Unset = UNSET,
    create_date: str | Unset = UNSET,
    index: str | Unset = UNSET,
    data: str | Unset = UNSET,
    is_pinned: str | Unset = UNSET,
    settings: str | Unset = UNSET,
    share_link: str | Unset = UNSET,
    note_description: str | Unset = UNSET,
    template: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> ListNoteResponse200 | ProblemAnswer | None:
    """List notes.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        id (str | Unset):
        name (str | Unset):
        create_date (str | Unset):
        index (str | Unset):
        data (str | Unset):
        is_pinned (str | Unset):
        settings (str | Unset):
        share_link (str | Unset):
        note_description (str | Unset):
        template (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListNoteResponse200 | ProblemAnswer
    """

    return sync_detailed(
        client=client,
        limit=limit,
        after=after,
        cursor=cursor,
        order=order,
        count=count,
        id=id,
        name=name,
        create_date=create_date,
        index=index,
        data=data,
        is_pinned=is_pinned,
        settings=settings,
        share_link=share_link,
        note_description=note_description,
        template=template,
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
    id: str | Unset = UNSET,
    name: str | Unset = UNSET,
    create_date: str | Unset = UNSET,
    index: str | Unset = UNSET,
    data: str | Unset = UNSET,
    is_pinned: str | Unset = UNSET,
    settings: str | Unset = UNSET,
    share_link: str | Unset = UNSET,
    note_description: str | Unset = UNSET,
    template: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[ListNoteResponse200 | ProblemAnswer]:
    """List notes.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        id (str | Unset):
        name (str | Unset):
        create_date (str | Unset):
        index (str | Unset):
        data (str | Unset):
        is_pinned (str | Unset):
        settings (str | Unset):
        share_link (str | Unset):
        note_description (str | Unset):
        template (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListNoteResponse200 | ProblemAnswer]
    """

    kwargs = _get_kwargs(
        limit=limit,
        after=after,
        cursor=cursor,
        order=order,
        count=count,
        id=id,
        name=name,
        create_date=create_date,
        index=index,
        data=data,
        is_pinned=is_pinned,
        settings=settings,
        share_link=share_link,
        note_description=note_description,
        template=template,
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
    id: str | Unset = UNSET,
    name: str | Unset = UNSET,
    create_date: str | Unset = UNSET,
    index: str | Unset = UNSET,
    data: str | Unset = UNSET,
    is_pinned: str | Unset = UNSET,
    settings: str | Unset = UNSET,
    share_link: str | Unset = UNSET,
    note_description: str | Unset = UNSET,
    template: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> ListNoteResponse200 | ProblemAnswer | None:
    """List notes.

    Args:
        limit (int | Unset):  Default: 50.
        after (int | Unset):
        cursor (str | Unset):
        order (str | Unset):
        count (bool | Unset):  Default: False.
        id (str | Unset):
        name (str | Unset):
        create_date (str | Unset):
        index (str | Unset):
        data (str | Unset):
        is_pinned (str | Unset):
        settings (str | Unset):
        share_link (str | Unset):
        note_description (str | Unset):
        template (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListNoteResponse200 | ProblemAnswer
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            after=after,
            cursor=cursor,
            order=order,
            count=count,
            id=id,
            name=name,
            create_date=create_date,
            index=index,
            data=data,
            is_pinned=is_pinned,
            settings=settings,
            share_link=share_link,
            note_description=note_description,
            template=template,
            x_request_id=x_request_id,
        )
    ).parsed
