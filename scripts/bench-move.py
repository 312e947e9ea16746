#!/usr/bin/env python3
"""Whole-store move benchmark: `cloner export --all` of a SQLite store the service filled,
`cloner import --all` into a fresh PostgreSQL database, then back (the PostgreSQL export into a
fresh SQLite file). Each command is one process timed by /usr/bin/time -v (wall time, peak RSS);
every import's summary lines must equal the first export's, or the script stops.

The store is filled through the release server: a template note (50 items with item data, 48
memos with an attachment each, a description; tags t0..t4) cloned with `copies` until about
`--objects` objects, then `--blob-mib` MiB of random binary values uploaded 16 MiB at a time
(`PUT /notes/{id}/data`) onto new notes. PostgreSQL is a throwaway cluster in the work folder
(run as `postgres` when we are root), stopped at the end.

usage: scripts/bench-move.py [--objects 100000] [--blob-mib 0] [--rounds 3]
"""
import argparse, base64, glob, http.client, json, os, re, shutil, signal, subprocess, sys, tempfile, uuid

parser = argparse.ArgumentParser()
parser.add_argument("--objects", type=int, default=100000)
parser.add_argument("--blob-mib", type=int, default=0)
parser.add_argument("--rounds", type=int, default=3)
args = parser.parse_args()
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
subprocess.run(["swift", "build", "-c", "release", "--product", "cloner"], check=True, stdout=subprocess.DEVNULL)
bindir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
cloner = f"{bindir}/cloner"
model = os.path.abspath("config/model.json")
pg_bin = os.environ.get("PG_BIN") or sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
work = tempfile.mkdtemp(prefix="bench-move-")
pgdata = os.path.join(work, "pg")
as_pg = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def request(port, method, path, body=None, content_type="application/json"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
    data = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else None)
    connection.request(method, path, body=data, headers={"Content-Type": content_type})
    response = connection.getresponse()
    text = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {text[:300]!r}")
    return json.loads(text) if text else None


def seed(database):
    process = subprocess.Popen([cloner, "serve", "--port", "0", "--database", database, "--model", model],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = None
    for line in process.stdout:
        if '"listening"' in line:
            port = int(json.loads(line)["port"])
            break
    if port is None:
        raise SystemExit("cloner did not start")
    date = "2026-11-25T10:00:00Z"
    template = {
        "id": str(uuid.uuid4()), "createDate": date, "name": "template", "data": base64.b64encode(os.urandom(2048)).decode(),
        "items": [{"name": f"item {i}", "itemDatas": [{"value": i * 1.5, "createDate": date}]} for i in range(50)],
        "noteDescription": {"content": "about"},
        "memos": [{"text": f"memo {i}", "createDate": date, "tags": [{"name": f"t{i}"}] if i < 5 else [],
                   "attachments": [{"image": base64.b64encode(bytes([i]) * 300).decode()}]} for i in range(48)],
    }
    note = request(port, "POST", "/notes", template)["_id"]
    per_note = 198
    copies = max(0, args.objects // per_note - 1)
    while copies > 0:
        batch = min(copies, 100)
        request(port, "POST", f"/notes/{note}/clone", {"copies": batch})
        copies -= batch
    for index in range(args.blob_mib // 16):
        holder = request(port, "POST", "/notes", {"id": str(uuid.uuid4()), "createDate": date, "name": f"blob {index}"})["_id"]
        request(port, "PUT", f"/notes/{holder}/data", os.urandom(16 << 20), "application/octet-stream")
    process.send_signal(signal.SIGTERM)
    process.wait()


def timed(label, command):
    result = subprocess.run(["/usr/bin/time", "-v"] + command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{label} failed:\n{result.stderr}")
    seconds = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", result.stderr).group(1)
    total = 0.0
    for part in seconds.split(":"):
        total = total * 60 + float(part)
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1)) / 1024
    summaries = [line for line in result.stderr.splitlines() if ", sha256 " in line and not line.startswith(("\t", " "))]
    return total, peak, summaries


try:
    seed(os.path.join(work, "seed.sqlite"))
    os.makedirs(pgdata)
    if os.getuid() == 0:
        shutil.chown(work, "postgres")
        shutil.chown(pgdata, "postgres")
    subprocess.run(as_pg + [f"{pg_bin}/initdb", "-D", pgdata, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(pgdata, "postgresql.auto.conf"), "a") as conf:
        conf.write(f"listen_addresses = ''\nunix_socket_directories = '{pgdata}'\nport = 5432\n")
    subprocess.run(as_pg + [f"{pg_bin}/pg_ctl", "-D", pgdata, "-l", os.path.join(work, "postgres.log"), "-w", "start"],
                   check=True, stdout=subprocess.DEVNULL)
    print(f"load before: {load()}")
    print(f"{'round':<6} {'step':<20} {'seconds':>8} {'peak RSS':>12}")
    reference = None
    for round in range(1, args.rounds + 1):
        database = f"move{round}"
        subprocess.run(as_pg + [f"{pg_bin}/psql", "-h", pgdata, "-U", "postgres", "-qAt", "-c", f"CREATE DATABASE {database}"],
                       check=True, stdout=subprocess.DEVNULL)
        uri = f"postgresql://postgres@/{database}?host={pgdata}&port=5432"
        back = os.path.join(work, f"back{round}.sqlite")
        document, document_pg = os.path.join(work, "store.ndjson"), os.path.join(work, "store-pg.ndjson")
        steps = [
            ("export SQLite", ["export", "--all", "--database", os.path.join(work, "seed.sqlite"), "-o", document]),
            ("import PostgreSQL", ["import", "--all", "--database", uri, "-i", document]),
            ("export PostgreSQL", ["export", "--all", "--database", uri, "-o", document_pg]),
            ("import SQLite", ["import", "--all", "--database", back, "-i", document_pg]),
        ]
        for name, command in steps:
            seconds, peak, summaries = timed(name, [cloner] + command + ["--model", model])
            reference = reference or summaries
            if summaries != reference:
                raise SystemExit(f"{name}: summaries differ:\n" + "\n".join(summaries))
            print(f"{round:<6} {name:<20} {seconds:>8.2f} {peak:>8.1f} MiB", flush=True)
        for path in (back, back + "-wal", back + "-shm", document_pg):
            if os.path.exists(path):
                os.remove(path)
    print("\n".join(reference))
    print(f"document: {os.path.getsize(document)} bytes; every import's counts and checksums equal the export's")
    print(f"load after: {load()}")
finally:
    if os.path.exists(os.path.join(pgdata, "postmaster.pid")):
        subprocess.run(as_pg + [f"{pg_bin}/pg_ctl", "-D", pgdata, "-m", "fast", "-w", "stop"], stdout=subprocess.DEVNULL)
    shutil.rmtree(work, ignore_errors=True)
