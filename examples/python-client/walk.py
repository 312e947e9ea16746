"""Walks Cloner's API with the client openapi-python-client generated (cloner_client/), as an app
developer would: records, a filtered count, clones (idempotent, dry run, as a job), a graph
exported and imported, and the served document. Exits 1 at the first answer it did not expect.

    python3 walk.py SERVER_URL

    SERVER_URL            or CLONER_URL, e.g. http://127.0.0.1:8080
    CLONER_API_KEY        a full-access key (CLONER_API_KEYS of the service)
    CLONER_READ_API_KEY   a read-only key (CLONER_READ_API_KEYS), for the 403 step
"""

import datetime
import io
import json
import os
import sys
import time
import uuid

from cloner_client import AuthenticatedClient
from cloner_client.api.clone import clone_note, get_job
from cloner_client.api.operations import get_open_api
from cloner_client.api.records import create_note, create_tag, get_note, list_note
from cloner_client.api.travel import export_note, import_note
from cloner_client.models import (
    CloneResult,
    ImportResult,
    ItemCreate,
    Job,
    JobStatus,
    ListNoteResponse200,
    MemoCreate,
    NoteCloneRequest,
    NoteCreate,
    NoteRecord,
    ProblemAnswer,
    TagCreate,
    TagRecord,
)
from cloner_client.types import File


class WalkFailed(Exception):
    """An answer the walk did not expect."""


def expect(condition, message):
    if not condition:
        raise WalkFailed(message)


def answered(response, status, kind):
    """The parsed answer, once the status and its type are the ones expected."""
    expect(
        response.status_code == status,
        f"expected {status}, got {response.status_code}: {response.content[:300]!r}",
    )
    expect(isinstance(response.parsed, kind), f"expected a {kind.__name__}, got {type(response.parsed).__name__}")
    return response.parsed


def step(name):
    print(f"walk: {name}", flush=True)


def walk(server, full_key, read_key):
    client = AuthenticatedClient(base_url=server, token=full_key, raise_on_unexpected_status=True)
    reader = AuthenticatedClient(base_url=server, token=read_key, raise_on_unexpected_status=True)
    now = datetime.datetime.now(datetime.timezone.utc)
    run = uuid.uuid4().hex[:8]

    step("a tag, then a note with two items and a memo tagged with it, in one request")
    tag = answered(create_tag.sync_detailed(client=client, body=TagCreate(name=f"errands-{run}", color="green")), 201, TagRecord)
    expect(tag.name == f"errands-{run}" and tag.color == "green", f"tag {tag}")
    note_name = f"Groceries {run}"
    created = create_note.sync_detailed(
        client=client,
        body=NoteCreate(
            id=uuid.uuid4(),
            create_date=now,
            name=note_name,
            items=[ItemCreate(name="Milk"), ItemCreate(name="Bread")],
            memos=[MemoCreate(create_date=now, text="before noon", tags=[tag.field_id])],
        ),
    )
    note = answered(created, 201, NoteRecord)
    expect(created.headers.get("Location") == f"/notes/{note.field_id}", f"Location {created.headers.get('Location')}")
    expect(len(note.items) == 2 and len(note.memos) == 1, f"note owns {note.items} and {note.memos}")

    step("read it back")
    read = answered(get_note.sync_detailed(note.field_id, client=reader), 200, NoteRecord)
    expect(read.name == note_name and read.items == note.items, f"read {read}")
    expect(read.settings == {"fontSize": 14, "theme": "system"}, f"settings default {read.settings}")

    step("list with a filter and count=true")
    page = answered(list_note.sync_detailed(client=reader, name=note_name, count=True), 200, ListNoteResponse200)
    expect(page.count == 1 and [n.field_id for n in page.data] == [note.field_id], f"page {page}")

    step("not with a read-only key")
    refused = answered(create_tag.sync_detailed(client=reader, body=TagCreate(name=f"nope-{run}")), 403, ProblemAnswer)
    expect(refused.status == 403, f"problem {refused}")

    step("clone it with an Idempotency-Key, then retry")
    key = f"walk-{run}"
    first = clone_note.sync_detailed(note.field_id, client=client, body=NoteCloneRequest(return_ids=True), idempotency_key=key)
    clone = answered(first, 201, CloneResult)
    expect(clone.clone is not None and clone.clone.id != note.field_id, f"clone {clone.clone}")
    created_counts = clone.created.additional_properties
    expect(created_counts == {"Note": 1, "Item": 2, "Memo": 1}, f"created {created_counts}")
    expect(clone.linked.additional_properties == {"Tag": 1}, f"linked {clone.linked.additional_properties}")
    expect(clone.ids is not None and str(note.field_id) in clone.ids["Note"], f"ids {clone.ids}")
    retry = clone_note.sync_detailed(note.field_id, client=client, body=NoteCloneRequest(return_ids=True), idempotency_key=key)
    replayed = answered(retry, 201, CloneResult)
    expect(retry.headers.get("Idempotent-Replayed") == "true", f"Idempotent-Replayed {retry.headers.get('Idempotent-Replayed')}")
    expect(replayed.clone.id == clone.clone.id, f"the retry cloned again: {replayed.clone.id} != {clone.clone.id}")
    copy = answered(get_note.sync_detailed(clone.clone.id, client=reader), 200, NoteRecord)
    expect(copy.name == note_name and copy.id != note.id, f"copy {copy.name} {copy.id}")
    expect(copy.field_cloned_from is not None and copy.field_cloned_from.id == note.field_id, f"clonedFrom {copy.field_cloned_from}")

    step("a dry run writes nothing")
    dry = answered(clone_note.sync_detailed(note.field_id, client=client, body=NoteCloneRequest(dry_run=True)), 200, CloneResult)
    expect(dry.dry_run and dry.clone is None and dry.created.additional_properties == created_counts, f"dry run {dry}")

    step("an asynchronous clone, polled to completion")
    accepted = clone_note.sync_detailed(note.field_id, client=client, prefer="respond-async")
    job = answered(accepted, 202, Job)
    expect(accepted.headers.get("Location") == f"/jobs/{job.id}", f"Location {accepted.headers.get('Location')}")
    deadline = time.monotonic() + 60
    while job.status in (JobStatus.QUEUED, JobStatus.RUNNING):
        expect(time.monotonic() < deadline, f"job {job.id} still {job.status} after a minute")
        time.sleep(0.05)
        job = answered(get_job.sync_detailed(job.id, client=reader), 200, Job)
    expect(job.status == JobStatus.SUCCEEDED, f"job {job.id} ended {job.status}: {job.error}")
    expect(job.result.created.additional_properties == created_counts, f"job result {job.result}")
    answered(get_note.sync_detailed(job.result.clone.id, client=reader), 200, NoteRecord)

    step("export the note as a graph document")
    document = answered(export_note.sync_detailed(note.field_id, client=reader), 200, File).payload.read()
    lines = [json.loads(line) for line in document.decode("utf-8").splitlines()]
    kinds = [line["kind"] for line in lines]
    expect(kinds[0] == "header" and kinds[-1] == "end", f"document kinds {kinds}")
    expect(kinds.count("object") == 4 and kinds.count("reference") == 1, f"document kinds {kinds}")

    step("import it: a dry run, then for real")
    check = import_note.sync_detailed(client=client, body=File(payload=io.BytesIO(document)), dry_run=True)
    checked = answered(check, 200, ImportResult)
    expect(checked.dry_run and checked.conflicts == [], f"import dry run {checked}")
    imported = import_note.sync_detailed(client=client, body=File(payload=io.BytesIO(document)), return_ids=True)
    result = answered(imported, 201, ImportResult)
    expect(result.created.additional_properties == created_counts, f"import created {result.created.additional_properties}")
    expect(result.linked.additional_properties == {"Tag": 1}, f"import linked {result.linked.additional_properties}")
    twin = answered(get_note.sync_detailed(result.clone.id, client=reader), 200, NoteRecord)
    expect(twin.name == note_name and len(twin.items) == 2 and twin.id != note.id, f"imported note {twin}")
    expect(imported.headers.get("Location") == f"/notes/{twin.field_id}", f"Location {imported.headers.get('Location')}")

    step("the served document")
    served = get_open_api.sync_detailed(client=reader)
    text = answered(served, 200, str)
    expect(served.headers.get("Content-Type", "").startswith("application/yaml"), f"Content-Type {served.headers.get('Content-Type')}")
    expect(text.startswith("openapi: 3.1") and "operationId\":\"importNote\"" in text, f"document starts {text[:80]!r}")


def main():
    arguments = sys.argv[1:]
    server = arguments[0] if arguments else os.environ.get("CLONER_URL")
    full_key = os.environ.get("CLONER_API_KEY")
    read_key = os.environ.get("CLONER_READ_API_KEY")
    if not server or not full_key or not read_key:
        print("usage: CLONER_API_KEY=... CLONER_READ_API_KEY=... walk.py SERVER_URL", file=sys.stderr)
        return 2
    try:
        walk(server.rstrip("/"), full_key, read_key)
    except WalkFailed as failure:
        print(f"walk: FAILED: {failure}", file=sys.stderr)
        return 1
    print("walk: every answer as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
