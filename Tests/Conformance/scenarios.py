"""Real answers of a running cloner service, each checked against openapi.yaml.

Fuzzing seldom reaches the answers that need a sequence of requests (a 304 after a GET, a 412
after a change, an idempotent replay, a finished job, a deny-rule conflict), so this walks through
them on the sample model (config/model.json) and holds every answer to the description with
schemathesis's own conformance checks: the status is documented, the content type, the required
headers and the body match. It also asserts what the description can't say exactly (a dry run
has `clone: null` and `dryRun: true`, a replay is byte-identical).

Usage: scenarios.py OPENAPI_YAML BASE_URL FULL_KEY READ_KEY
Prints one line per exchange; exits 1 listing every failure.
"""

import json
import sys
import time
import uuid

import requests
import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi import checks as openapi_checks

CHECKS = [
    not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
]

spec_path, base_url, full_key, read_key = sys.argv[1:5]
schema = schemathesis.openapi.from_path(spec_path)
session = requests.Session()
failures = []
exchanges = 0


def exchange(method, template, expected, params=None, headers=None, body=None, raw=None,
             content_type="application/json", key=None, query=None, validate=True):
    """Sends one request, checks the status, validates the answer against the operation."""
    global exchanges
    exchanges += 1
    params = params or {}
    sent = {"Authorization": f"Bearer {key or full_key}"} if key != "" else {}
    sent.update(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
    elif raw is not None:
        data = raw
    if data is not None:
        sent["Content-Type"] = content_type
    url = base_url + template.format(**params)
    response = session.request(method, url, headers=sent, data=data, params=query, timeout=30)
    label = f"{method} {url}{'?' + '&'.join(f'{k}={v}' for k, v in query.items()) if query else ''}"
    print(f"{response.status_code} {label}")
    if response.status_code != expected:
        failures.append(f"{label}: expected {expected}, got {response.status_code}: {response.text[:300]}")
        return response
    if validate:
        case = schema[template][method].Case(path_parameters=params, headers=headers, query=query)
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseExceptionGroup as error:  # schemathesis's FailureGroup names every violation
            failures.append(f"{label} ({response.status_code}) does not conform to openapi.yaml:\n{error}")
    return response


def expect(condition, message):
    if not condition:
        failures.append(message)


def note_body(name, tag):
    return {
        "id": str(uuid.uuid4()), "createDate": "2026-11-21T20:15:29.123Z", "name": name,
        "items": [{"name": "milk", "itemDatas": [{"createDate": "2026-11-21T20:15:29Z", "value": 1.5}]}],
        "memos": [{"createDate": "2026-11-21T20:15:29Z", "text": "memo", "tags": [{"name": tag}]}],
    }


# Records: create, read, conditional read, conditional update, list, filters.
created = exchange("POST", "/{collection}", 201, {"collection": "notes"}, body=note_body("groceries", "deny-tag"))
note_id = created.json()["_id"] if created.status_code == 201 else 1
expect(created.headers.get("Location") == f"/notes/{note_id}", f"Location of a new note: {created.headers.get('Location')}")
record = {"collection": "notes", "id": note_id}
read = exchange("GET", "/{collection}/{id}", 200, record)
etag = read.headers.get("ETag", '"1"')
exchange("GET", "/{collection}/{id}", 304, record, headers={"If-None-Match": etag})
exchange("GET", "/{collection}/{id}", 304, record, headers={"If-None-Match": f'"998", W/{etag}'})
exchange("GET", "/{collection}/{id}", 304, record, headers={"If-None-Match": "*"})
exchange("GET", "/{collection}/{id}", 200, record, headers={"If-None-Match": '"999"'})
exchange("PATCH", "/{collection}/{id}", 412, record, headers={"If-Match": '"999"'}, body={"name": "stale"})
exchange("PATCH", "/{collection}/{id}", 400, record, headers={"If-Match": "1"}, body={"name": "unquoted"})
updated = exchange("PATCH", "/{collection}/{id}", 200, record, headers={"If-Match": etag}, body={"name": "renamed"})
expect(updated.headers.get("ETag") != etag, "PATCH must move the ETag on")
exchange("PATCH", "/{collection}/{id}", 200, record)
exchange("PATCH", "/{collection}/{id}", 400, record, raw=b"{not json")
exchange("PATCH", "/{collection}/{id}", 422, record, body={"index": 1.5})
exchange("PATCH", "/{collection}/{id}", 415, record, raw=b"name=x", content_type="application/x-www-form-urlencoded")
exchange("POST", "/{collection}", 201, {"collection": "notes"}, body=note_body("second", "other-tag"))
page = exchange("GET", "/{collection}", 200, {"collection": "notes"}, query={"limit": "1"})
next_url = page.json().get("next") if page.status_code == 200 else None
expect(isinstance(next_url, str) and "cursor=" in next_url, f"a page of 1 of 2 notes has a next URL, got {next_url!r}")
exchange("GET", "/{collection}", 200, {"collection": "notes"}, query={"name": "renamed", "order": "-createDate,_id"})
exchange("GET", "/{collection}", 422, {"collection": "notes"}, query={"nosuch": "1"})
exchange("GET", "/{collection}", 422, {"collection": "notes"}, query={"limit": "0"})
exchange("GET", "/{collection}", 404, {"collection": "nosuch"})
exchange("GET", "/{collection}/{id}", 404, {"collection": "notes", "id": 999999})
exchange("POST", "/{collection}", 400, {"collection": "notes"}, raw=b"[1,")
exchange("POST", "/{collection}", 415, {"collection": "notes"}, raw=b"{}", content_type="text/plain")
exchange("POST", "/{collection}", 422, {"collection": "notes"}, body={"nosuch": 1})
dangling = exchange("POST", "/{collection}", 422, {"collection": "items"}, body={"note": 999999})
expect(dangling.json().get("field") == "note", f"a dangling _id names the relationship: {dangling.text}")

# Conflicts: a unique attribute, and a deny delete rule with related objects.
tag = exchange("POST", "/{collection}", 201, {"collection": "tags"}, body={"name": "unique-tag"})
duplicate = exchange("POST", "/{collection}", 409, {"collection": "tags"}, body={"name": "unique-tag"})
expect(duplicate.json().get("code") == "conflict" and duplicate.json().get("field") == "name",
       f"a unique conflict names the attribute: {duplicate.text}")
tags = exchange("GET", "/{collection}", 200, {"collection": "tags"}, query={"name": "deny-tag"})
deny_tag = tags.json()["data"][0]["_id"] if tags.status_code == 200 and tags.json()["data"] else 1
denied = exchange("DELETE", "/{collection}/{id}", 409, {"collection": "tags", "id": deny_tag})
expect(denied.json().get("code") == "conflict" and denied.json().get("field") == "memos",
       f"a deny rule conflict names the relationship: {denied.text}")
if tag.status_code == 201:
    tag_id = tag.json()["_id"]
    exchange("DELETE", "/{collection}/{id}", 412, {"collection": "tags", "id": tag_id}, headers={"If-Match": '"7"'})
    exchange("DELETE", "/{collection}/{id}", 204, {"collection": "tags", "id": tag_id}, headers={"If-Match": '"1"'})
    exchange("DELETE", "/{collection}/{id}", 404, {"collection": "tags", "id": tag_id})

# Clones: dry run, real, idempotent replay, reused key, unknown names, asynchronous job.
clone = {"collection": "notes", "id": note_id}
dry = exchange("POST", "/{collection}/{id}/clone", 200, clone, body={"dryRun": True})
if dry.status_code == 200:
    answer = dry.json()
    expect(answer.get("clone", "absent") is None and answer.get("dryRun") is True,
           f"a dry run answers clone null and dryRun true: {answer}")
    expect("Location" not in dry.headers, "a dry run has no Location")
key = str(uuid.uuid4())
first = exchange("POST", "/{collection}/{id}/clone", 201, clone, headers={"Idempotency-Key": key}, body={"returnIds": True})
again = exchange("POST", "/{collection}/{id}/clone", 201, clone, headers={"Idempotency-Key": key}, body={"returnIds": True})
expect(again.headers.get("Idempotent-Replayed") == "true", "a replay says Idempotent-Replayed: true")
expect(first.content == again.content and first.headers.get("Location") == again.headers.get("Location"),
       "a replay answers the first answer byte for byte, with its Location")
if first.status_code == 201:
    expect(first.json().get("dryRun") is False and "ids" in first.json(), f"a clone with returnIds: {first.json()}")
    exchange("GET", "/{collection}/{id}", 200, {"collection": "notes", "id": first.json()["clone"]["id"]})
exchange("POST", "/{collection}/{id}/clone", 422, clone, headers={"Idempotency-Key": key}, body={"returnIds": False})
exchange("POST", "/{collection}/{id}/clone", 422, clone, headers={"Idempotency-Key": "k" * 256})
exchange("POST", "/{collection}/{id}/clone", 201, clone)
exchange("POST", "/{collection}/{id}/clone", 201, clone, body={"exclude": ["memos", "Item.itemDatas"], "set": {"name": "copy"}})
exchange("POST", "/{collection}/{id}/clone", 422, clone, body={"exclude": ["nosuch"]})
exchange("POST", "/{collection}/{id}/clone", 422, clone, body={"set": {"nosuch": 1}})
exchange("POST", "/{collection}/{id}/clone", 422, clone, body={"dryRun": "yes"})
exchange("POST", "/{collection}/{id}/clone", 400, clone, raw=b"{")
exchange("POST", "/{collection}/{id}/clone", 415, clone, raw=b"{}", content_type="text/plain")
exchange("POST", "/{collection}/{id}/clone", 404, {"collection": "notes", "id": 999999})
exchange("POST", "/{collection}/{id}/clone", 200, clone, headers={"Prefer": "respond-async"}, body={"dryRun": True})
async_key = str(uuid.uuid4())
queued = exchange("POST", "/{collection}/{id}/clone", 202, clone, headers={"Prefer": "respond-async", "Idempotency-Key": async_key})
requeued = exchange("POST", "/{collection}/{id}/clone", 202, clone, headers={"Prefer": "respond-async", "Idempotency-Key": async_key})
expect(requeued.headers.get("Idempotent-Replayed") == "true" and requeued.headers.get("Location") == queued.headers.get("Location"),
       "an asynchronous replay answers the same job")
if queued.status_code == 202:
    job_id = queued.json()["id"]
    expect(queued.headers.get("Location") == f"/jobs/{job_id}", f"202 Location: {queued.headers.get('Location')}")
    status = "queued"
    deadline = time.monotonic() + 60
    while status in ("queued", "running") and time.monotonic() < deadline:
        job = exchange("GET", "/jobs/{id}", 200, {"id": job_id})
        status = job.json().get("status") if job.status_code == 200 else "failed"
        if status in ("queued", "running"):
            time.sleep(0.1)
    expect(status == "succeeded", f"the job ends succeeded, got {status}")
# A job that fails: the root's clone would repeat its own unique `id`.
own_uuid = created.json().get("id") if created.status_code == 201 else str(uuid.uuid4())
failing = exchange("POST", "/{collection}/{id}/clone", 202, clone, headers={"Prefer": "respond-async"}, body={"set": {"id": own_uuid}})
if failing.status_code == 202:
    deadline = time.monotonic() + 60
    status = "queued"
    while status in ("queued", "running") and time.monotonic() < deadline:
        job = exchange("GET", "/jobs/{id}", 200, {"id": failing.json()["id"]})
        status = job.json().get("status") if job.status_code == 200 else "?"
        if status in ("queued", "running"):
            time.sleep(0.1)
    expect(status == "failed" and job.json().get("error", {}).get("code") == "conflict",
           f"a clone repeating a unique value ends failed with a conflict: {job.text}")
exchange("POST", "/{collection}/{id}/clone", 409, clone, body={"set": {"id": own_uuid}})
# An unknown root is a 404 before any job exists, as for a synchronous clone.
exchange("POST", "/{collection}/{id}/clone", 404, {"collection": "notes", "id": 999999}, headers={"Prefer": "respond-async"})
exchange("GET", "/jobs/{id}", 404, {"id": "no-such-job"})

# Operations.
model = exchange("GET", "/model", 200)
exchange("GET", "/model", 304, headers={"If-None-Match": model.headers.get("ETag", "")})
exchange("GET", "/model", 304, headers={"If-None-Match": '"other", W/' + model.headers.get("ETag", "")})
exchange("GET", "/model", 304, headers={"If-None-Match": "*"})
exchange("GET", "/model", 200, headers={"If-None-Match": '"other"'})
exchange("GET", "/openapi.yaml", 200)
exchange("GET", "/metrics", 200)
exchange("GET", "/healthz", 200, key="")
exchange("GET", "/readyz", 200, key="")

# Authentication: no key, an unknown key, a read-only key on reads and writes.
exchange("GET", "/{collection}", 401, {"collection": "notes"}, key="")
exchange("GET", "/model", 401, key="wrong-key")
exchange("GET", "/{collection}", 200, {"collection": "notes"}, key=read_key)
exchange("POST", "/{collection}", 403, {"collection": "notes"}, key=read_key, body=note_body("x", "y"))
exchange("POST", "/{collection}/{id}/clone", 403, clone, key=read_key)
exchange("DELETE", "/{collection}/{id}", 403, record, key=read_key)

# A method a path does not take: 405 with Allow, as a problem (not an operation of the description).
put = exchange("PUT", "/{collection}", 405, {"collection": "notes"}, body={}, validate=False)
expect("POST" in put.headers.get("Allow", "") and put.headers.get("Content-Type") == "application/problem+json",
       f"405 carries Allow and a problem: {put.headers}")

exchange("DELETE", "/{collection}/{id}", 204, record)
exchange("GET", "/{collection}/{id}", 404, record)

print(f"{exchanges} exchanges, {len(failures)} failures")
for failure in failures:
    print(f"FAIL: {failure}", file=sys.stderr)
sys.exit(1 if failures else 0)
