#!/usr/bin/env python3
"""Peak memory one client can make the service hold: each scenario starts a fresh `cloner serve`
(SQLite in a temporary folder, or the PostgreSQL database given by --database), reads its resident
set before, sends the requests, and prints the peak resident set (VmHWM) above that baseline, with
the body size where there is one. A figure, not a test: run it on a quiet machine, e.g.

    swift build -c release --product cloner
    scripts/bench-memory.py --binary .build/release/cloner
    scripts/bench-memory.py --binary .build/release/cloner --env CLONER_HTTP_MAX_QUEUED_OUTPUT_BYTES=1073741824

Scenarios: `wide` (one POST /notes of N empty items, 8 MB at the default 2.79 million), `labels`
(600,000 items with a name, 7.8 MB), `at-limit` (99,999 items with 70-byte names, the most one
body may create under the default maxObjectsPerRequest), `pipeline` (1,000 pipelined GETs of a
1 MB page on one connection that reads nothing for 10 s, then everything), `shared-value` (ten
notes that share one 100 MB binary value, uploaded and cloned before the baseline, read as one
page of a list), `export-value` (five clients export a note with a 100 MB binary value, read
nothing for 10 s, then everything), `import-lines` (sixteen imports on as many connections,
each sending 64 MiB of one line that never ends, then waiting), `array-bodies` (eight PATCHes at
once, each an 8 MiB body whose json attribute is an array of four million numbers) and `imports`
(three imports at once of one document of a note with 999,999 items, about 180 MB, written to a
temporary file first) and `uploads` (250 connections from one address, each a PUT of a binary
value announcing 100 MiB that sends 1,040,000 bytes, just under a chunk, then stalls for 5 s).

Every scenario also reads `GET /notes?limit=5` from another connection every 0.2 s while it runs
and prints the slowest answer: a normal client's wait while one client does its worst.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time


def rss_kib(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def start(binary, database, env):
    folder = tempfile.mkdtemp(prefix="cloner-mem-")
    model = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "model.json")
    location = database or os.path.join(folder, "cloner.sqlite")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CLONER_")}
    environment.update(env)
    process = subprocess.Popen([binary, "serve", "--port", "0", "--host", "127.0.0.1", "--database", location, "--model", model],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment, cwd=folder, text=True)
    for line in process.stdout:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("message") == "listening":
            port = int(record["port"])
            break
    else:
        raise SystemExit("cloner did not start")
    # Keep draining its log so it never blocks on a full pipe.
    import threading
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, port


def request(port, method, path, body=b"", timeout=600):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        connection.sendall(head.encode() + body)
        chunks = []
        while True:
            chunk = connection.recv(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    answer = b"".join(chunks)
    return int(answer.split(b" ", 2)[1]), answer


def note(members):
    return ('{"id":"%s","createDate":"2026-01-02T03:04:05.678Z",%s}' % (os.urandom(16).hex()[:8] + "-0000-4000-8000-" + os.urandom(6).hex(), members)).encode()


def created_note(port, members):
    """POSTs a note with `members`; its `_id`."""
    status, answer = request(port, "POST", "/notes", note(members))
    assert status == 201, status
    return int(json.loads(answer.split(b"\r\n\r\n", 1)[1])["_id"])


def refusals(connections):
    """Closes `connections` (non-blocking), counting those the service answered 503."""
    refused = 0
    for connection in connections:
        connection.setblocking(False)
        try:
            if connection.recv(64).startswith(b"HTTP/1.1 503"):
                refused += 1
        except OSError:
            pass
        connection.close()
    return refused


def measure(name, args, send, body_bytes=None, setup=None):
    process, port = start(args.binary, args.database, dict(e.split("=", 1) for e in args.env))
    try:
        if setup:
            setup(port)
            # The setup's own peak (an upload, say) is not the scenario's: start the peak again
            # (proc(5), clear_refs: 5 resets VmHWM to the current resident set).
            with open(f"/proc/{process.pid}/clear_refs", "w") as refs:
                refs.write("5")
        time.sleep(0.5)
        base = rss_kib(process.pid, "VmRSS")
        started = time.monotonic()
        waits, done = [], threading.Event()

        def probe():
            while not done.is_set():
                began = time.monotonic()
                request(port, "GET", "/notes?limit=5")
                waits.append(time.monotonic() - began)
                done.wait(0.2)
        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        try:
            outcome = send(port)
        finally:
            done.set()
            prober.join()
        seconds = time.monotonic() - started
        peak = rss_kib(process.pid, "VmHWM")
        grown = (peak - base) / 1024
        ratio = f", {grown * 1024 * 1024 / body_bytes:.1f}x the body" if body_bytes else ""
        alive = "alive" if process.poll() is None else f"EXITED {process.returncode}"
        slowest = f"reads ≤ {max(waits) * 1000:.0f} ms" if waits else "no read"
        print(f"{name:10} {outcome:>28}  peak +{grown:8.1f} MiB{ratio}  {seconds:6.1f} s  {slowest}  ({alive})", flush=True)
    finally:
        process.kill()
        process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/cloner")
    parser.add_argument("--database", help="a PostgreSQL URI (an empty database); SQLite in a temporary folder otherwise")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the service")
    parser.add_argument(
        "--scenarios", default="wide,labels,at-limit,pipeline,shared-value,export-value,import-lines,array-bodies,imports,uploads")
    parser.add_argument("--wide", type=int, default=2_790_000)
    args = parser.parse_args()
    scenarios = args.scenarios.split(",")

    if "wide" in scenarios:
        body = note('"items":[' + ",".join(["{}"] * args.wide) + "]")
        measure("wide", args, lambda port: f"{args.wide} items: {request(port, 'POST', '/notes', body)[0]}", len(body))
    if "labels" in scenarios:
        body = note('"items":[' + ",".join(['{"name":"a"}'] * 600_000) + "]")
        measure("labels", args, lambda port: f"600000 labels: {request(port, 'POST', '/notes', body)[0]}", len(body))
    if "at-limit" in scenarios:
        body = note('"items":[' + ",".join('{"name":"%s"}' % ("n%069d" % i) for i in range(99_999)) + "]")
        measure("at-limit", args, lambda port: f"99999 items: {request(port, 'POST', '/notes', body)[0]}", len(body))
    if "pipeline" in scenarios:
        def pipeline(port):
            # A page of 1000 items with 1 KB names: about 1 MB of JSON per answer.
            items = ",".join('{"name":"%s"}' % ("p%04d" % i + "x" * 1000) for i in range(1000))
            status, _ = request(port, "POST", "/notes", note('"items":[' + items + "]"))
            assert status == 201, status
            with socket.create_connection(("127.0.0.1", port), timeout=600) as connection:
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
                connection.sendall(b"GET /items?limit=1000 HTTP/1.1\r\nHost: x\r\n\r\n" * 1000)
                time.sleep(10)
                received = 0
                connection.settimeout(60)
                while received < 1000 * 1_000_000:
                    chunk = connection.recv(1 << 20)
                    if not chunk:
                        break
                    received += len(chunk)
            return f"1000 x 1 MB read late: {received // 1_000_000} MB"
        measure("pipeline", args, pipeline)
    if "shared-value" in scenarios:
        def share(port):
            noted = created_note(port, '"name":"shared"')
            status, _ = request(port, "PUT", f"/notes/{noted}/data", os.urandom(1 << 20) * 100)
            assert status == 200, status
            status, _ = request(port, "POST", f"/notes/{noted}/clone", b'{"copies":9}')
            assert status == 201, status

        def page(port):
            status, answer = request(port, "GET", "/notes?limit=10")
            size = f"{len(answer) / 1e6:.1f} MB" if len(answer) >= 1e6 else f"{len(answer) / 1e3:.1f} kB"
            return f"10 records: {status}, {size}"
        measure("shared", args, page, setup=share)
    if "export-value" in scenarios:
        noted = []

        def upload(port):
            noted.append(created_note(port, '"name":"exported"'))
            status, _ = request(port, "PUT", f"/notes/{noted[0]}/data", os.urandom(1 << 20) * 100)
            assert status == 200, status

        def exports(port):
            connections = []
            for _ in range(5):
                connection = socket.create_connection(("127.0.0.1", port), timeout=600)
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
                connection.sendall(f"GET /notes/{noted[0]}/export HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                connections.append(connection)
            time.sleep(10)
            sizes = []
            for connection in connections:
                received = 0
                while True:
                    chunk = connection.recv(1 << 20)
                    if not chunk:
                        break
                    received += len(chunk)
                connection.close()
                sizes.append(received)
            return f"5 exports: {min(sizes) / 1e6:.0f}-{max(sizes) / 1e6:.0f} MB"
        measure("export", args, exports, setup=upload)
    if "import-lines" in scenarios:
        def lines(port):
            connections, refused = [], 0
            piece = b"x" * (1 << 20)
            for _ in range(16):
                connection = socket.create_connection(("127.0.0.1", port), timeout=600)
                head = "POST /notes/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: %d\r\n\r\n" % (128 << 20)
                connection.sendall(head.encode())
                try:
                    for _ in range(64):
                        connection.sendall(piece)
                except OSError:
                    refused += 1  # answered and closed before the 64 MiB were sent
                connections.append(connection)
            time.sleep(5)
            refused += refusals(connections)
            return f"16 x 64 MiB lines: {refused} refused"
        measure("lines", args, lines)
    if "array-bodies" in scenarios:
        noted = []

        def create(port):
            noted.append(created_note(port, '"name":"arrays"'))

        body = b'{"settings":[' + b",".join([b"0"] * (4 * 1024 * 1024 - 8)) + b"]}"

        def patches(port):
            statuses = []
            threads = [threading.Thread(target=lambda: statuses.append(request(port, "PATCH", f"/notes/{noted[0]}", body)[0])) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return f"8 x 4M numbers: {sorted(set(statuses))}"
        measure("arrays", args, patches, len(body) * 8, setup=create)
    if "imports" in scenarios:
        document = tempfile.NamedTemporaryFile(prefix="cloner-import-", suffix=".ndjson", delete=False)

        def exported(port):
            # The exporter's own lines for one note and one item, the item's repeated with new refs.
            noted = created_note(port, '"name":"n","items":[{"name":"i"}]')
            status, answer = request(port, "GET", f"/notes/{noted}/export")
            body = answer.split(b"\r\n\r\n", 1)[1]
            chunks, rest = [], body
            while rest:  # chunked transfer coding
                size, rest = rest.split(b"\r\n", 1)
                chunks.append(rest[: int(size, 16)])
                rest = rest[int(size, 16) + 2:]
            lines = b"".join(chunks).decode().splitlines()
            item = json.loads(next(line for line in lines if '"entity":"Item"' in line))
            root = json.loads(next(line for line in lines if '"entity":"Note"' in line and '"object"' in line))
            count = 999_999
            root["relationships"]["items"] = list(range(1, count + 1))
            with open(document.name, "w") as out:
                out.write(lines[0] + "\n" + json.dumps(root, separators=(",", ":")) + "\n")
                for ref in range(1, count + 1):
                    item["ref"], item["attributes"]["name"] = ref, f"item {ref}"
                    out.write(json.dumps(item, separators=(",", ":")) + "\n")
                out.write(json.dumps({"kind": "end", "objects": count + 1, "references": 0}) + "\n")

        def imports(port):
            statuses = []

            def one():
                with socket.create_connection(("127.0.0.1", port), timeout=1800) as connection, open(document.name, "rb") as data:
                    size = os.fstat(data.fileno()).st_size
                    head = "POST /notes/import HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-ndjson\r\nContent-Length: %d\r\n\r\n" % size
                    connection.sendall(head.encode())
                    connection.sendfile(data)
                    statuses.append(connection.recv(64).split(b" ", 2)[1].decode())
            threads = [threading.Thread(target=one) for _ in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return f"3 x 1M objects: {sorted(statuses)}"
        try:
            measure("imports", args, imports, setup=exported)
        finally:
            os.unlink(document.name)
    if "uploads" in scenarios:
        noted = []

        def create(port):
            noted.append(created_note(port, '"name":"uploads"'))

        def uploads(port):
            payload = bytes((i * 7) & 255 for i in range(1_040_000))
            connections = []
            for _ in range(250):
                connection = socket.create_connection(("127.0.0.1", port), timeout=600)
                connection.sendall(
                    f"PUT /notes/{noted[0]}/data HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: {100 << 20}\r\n\r\n".encode())
                connection.setblocking(False)
                try:
                    connection.sendall(payload)
                except BlockingIOError:
                    pass  # the server stopped reading: its share is full, or it answered 503
                connections.append(connection)
            time.sleep(5)
            return f"250 stalled uploads: {refusals(connections)} refused"
        measure("uploads", args, uploads, setup=create)


if __name__ == "__main__":
    main()
