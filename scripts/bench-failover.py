#!/usr/bin/env python3
"""Clones under load while the database fails over, and what the clients saw.

Clients clone one note (`POST /notes/ID/clone`), each request with an Idempotency-Key that is
retried as it is until it is acknowledged; a poller reads /readyz. After --event-after seconds the
--event command runs (a kill of the primary, a switchover: `scripts/ha.sh failover DIR`). At the
end it prints the answers by status and code, the time from the event to the first clone
acknowledged after the gap, what /readyz said, and whether every acknowledged clone exists
exactly once (the notes counted before and after through the service, `?count=true`).

    scripts/bench-failover.py --url http://127.0.0.1:8080 --event 'scripts/ha.sh failover /tmp/ha'

Standard library only. Exit status 1 when an acknowledged clone is missing or counted twice, or
an answer was a 500.
"""

import argparse
import collections
import http.client
import json
import shlex
import subprocess
import threading
import time
import urllib.parse
import uuid



def note():
    """A note of the sample model (config/model.json), with an id of its own each run."""
    return {"id": str(uuid.uuid4()), "name": "Failover", "createDate": "2026-11-21T10:00:00Z",
            "items": [{"name": "milk"}, {"name": "eggs"}]}


class Service:
    def __init__(self, url, key):
        parsed = urllib.parse.urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.headers = {"Content-Type": "application/json"}
        if key:
            self.headers["Authorization"] = "Bearer " + key

    def request(self, method, path, body=None, headers=None, timeout=60):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body),
                               headers={**self.headers, **(headers or {})})
            response = connection.getresponse()
            # Header names are case-insensitive (RFC 9110 §5.1), and haproxy passes them on
            # lower-cased: keyed lower-case here.
            return response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
        finally:
            connection.close()


def problem_code(body):
    """The problem's `code`, or what the body was when it was no problem document (a proxy's page)."""
    try:
        return json.loads(body or b"{}").get("code")
    except ValueError:
        return "not JSON: " + body[:40].decode("utf-8", "replace").replace("\n", " ")


def readiness_reason(body):
    """What a /readyz 503 said, or the start of the body when it is not Cloner's (a proxy's)."""
    try:
        return json.loads(body).get("reason", "")[:60]
    except ValueError:
        return "not JSON: " + body[:40].decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=float, default=40.0, help="seconds of load in all")
    parser.add_argument("--event-after", type=float, default=6.0, help="seconds of load before the event")
    parser.add_argument("--event", required=True, help="the command that fails the database over")
    arguments = parser.parse_args()
    service = Service(arguments.url, arguments.api_key)

    status, _, body = service.request("POST", "/notes", note())
    if status != 201:
        raise SystemExit(f"creating the note answered {status}: {body[:200]!r}")
    source = json.loads(body)["_id"]
    before = json.loads(service.request("GET", "/notes?limit=1&count=true")[2])["count"]

    lock = threading.Lock()
    answers = collections.Counter()
    timeline = []
    acknowledged = []
    readiness = collections.Counter()
    stop_at = time.time() + arguments.duration
    event_at = [None]

    def client(number):
        while time.time() < stop_at:
            key = f"failover-{number}-{uuid.uuid4()}"
            while time.time() < stop_at:
                try:
                    status, headers, body = service.request("POST", f"/notes/{source}/clone", {},
                                                            {"Idempotency-Key": key})
                except OSError as error:
                    with lock:
                        answers[("no answer", type(error).__name__)] += 1
                    time.sleep(0.5)
                    continue
                code = None if status in (200, 201) else problem_code(body)
                with lock:
                    answers[(status, code)] += 1
                    timeline.append((time.time(), status))
                    if status == 503 and "retry-after" not in headers:
                        answers[("503 without Retry-After", code)] += 1
                if status in (200, 201):
                    with lock:
                        acknowledged.append(json.loads(body)["clone"]["id"])
                    break
                time.sleep(min(float(headers.get("retry-after", "1")), 1.0) / 4)

    def poll_readiness():
        while time.time() < stop_at:
            try:
                status, _, body = service.request("GET", "/readyz", timeout=15)
                reason = readiness_reason(body) if status != 200 else ""
                with lock:
                    readiness[(status, reason)] += 1
            except OSError:
                with lock:
                    readiness[("no answer", "")] += 1
            time.sleep(0.5)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(arguments.clients)]
    threads.append(threading.Thread(target=poll_readiness))
    for thread in threads:
        thread.start()
    time.sleep(arguments.event_after)
    event_at[0] = time.time()
    event = subprocess.run(shlex.split(arguments.event), capture_output=True, text=True)
    for thread in threads:
        thread.join()

    after = None
    for _ in range(60):
        try:
            status, _, body = service.request("GET", "/notes?limit=1&count=true")
            if status == 200:
                after = json.loads(body)["count"]
                break
        except OSError:
            pass
        time.sleep(1)

    print(f"event: {arguments.event!r} exited {event.returncode}")
    first_failure = min((t for t, s in timeline if t >= event_at[0] and s not in (200, 201)), default=None)
    if first_failure is not None:
        first_ack = min((t for t, s in timeline if t > first_failure and s in (200, 201)), default=None)
        if first_ack is not None:
            print(f"event to the first clone acknowledged after the gap: {first_ack - event_at[0]:.2f} s")
        else:
            print("no clone acknowledged after the gap")
    else:
        print("no answer failed after the event")
    print("answers:", ", ".join(f"{status} {code or ''}".strip() + f": {count}" for (status, code), count in answers.most_common()))
    print("/readyz:", ", ".join(f"{status} {reason}".strip() + f": {count}" for (status, reason), count in readiness.most_common()))
    made = None if after is None else after - before
    twice = len(acknowledged) - len(set(acknowledged))
    print(f"acknowledged: {len(acknowledged)}, notes made: {made}, acknowledged twice: {twice}")
    failed = twice > 0 or made != len(acknowledged) or any(status == 500 for status, _ in answers)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
