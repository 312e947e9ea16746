#!/usr/bin/env python3
"""Graphs-that-travel benchmark: a clone, an export and an import of the same note on the same
store, through the real server (release build), alternating round after round.

A seeded store (`clone-bench setup`, or `pg-setup` on PostgreSQL: one note whose items each have
item data, a memo tagged with 2 of 50 tags and an attachment; 4 objects per item plus the note) is
copied afresh for every measurement (SQLite: the file; PostgreSQL: `CREATE DATABASE … TEMPLATE`),
and each measurement runs in a fresh `cloner serve` process, so the peak RSS printed (the server's
VmHWM) is that operation's own, next to the idle server's RSS just before the request. Prints
objects/s and peak RSS per round and the medians.

On PostgreSQL (`--backends postgresql`, or `sqlite,postgresql`) the script starts a throwaway
cluster in a temporary folder (initdb + pg_ctl, its Unix socket in that folder; as the postgres
user through runuser when run as root), with the settings of scripts/bench-clone.sh, and stops it
on exit.

usage: scripts/bench-travel.py [--items 25000] [--rounds 3] [--blob-bytes 4096] [--bindir DIR]...
       [--backends sqlite|postgresql|sqlite,postgresql]
(--bindir: measure the cloner and clone-bench found there, say a copy of an earlier build, instead
of building the release products; given twice or more, every round measures each build in turn —
the first one's tools seed the store and write the document)
"""
import argparse, glob, http.client, json, os, re, shutil, signal, statistics, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=25000)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--blob-bytes", type=int, default=4096)
parser.add_argument("--bindir", action="append")
parser.add_argument("--backends", default="sqlite")
args = parser.parse_args()
backends = args.backends.split(",")
if any(backend not in ("sqlite", "postgresql") for backend in backends):
    raise SystemExit("--backends: sqlite, postgresql or both, comma-separated")
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
if args.bindir:
    bindirs = [os.path.abspath(bindir) for bindir in args.bindir]
else:
    for product in ("clone-bench", "cloner"):
        subprocess.run(["swift", "build", "-c", "release", "--product", product], check=True, stdout=subprocess.DEVNULL)
    bindirs = [subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], check=True, capture_output=True,
                              text=True).stdout.strip()]
# Builds told apart by their folder's name (numbered when two share one).
labels = [os.path.basename(bindir) for bindir in bindirs]
if len(set(labels)) < len(labels):
    labels = [f"{label}-{number + 1}" for number, label in enumerate(labels)]
work = tempfile.mkdtemp(prefix="bench-travel-")
model = os.path.abspath("config/model.json")
cluster = None


def load():
    return open("/proc/loadavg").read().split()[:3]


def serve(bindir, database):
    process = subprocess.Popen([f"{bindir}/cloner", "serve", "--port", "0", "--database", database, "--model", model,
                                "--max-objects", "10000000"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        if '"listening"' in line:
            return process, int(json.loads(line)["port"])
    raise SystemExit("cloner did not start")


def peak_mib(pid, field="VmHWM"):
    status = open(f"/proc/{pid}/status").read()
    return int(re.search(field + r":\s+(\d+)", status).group(1)) / 1024


class SQLiteStore:
    name = "sqlite"

    def __init__(self):
        self.seed = os.path.join(work, "seed.sqlite")

    def setup(self, bindir):
        subprocess.run([f"{bindir}/clone-bench", "setup", "--db", self.seed, "--items", str(args.items),
                        "--blob-bytes", str(args.blob_bytes), "--model", model], check=True, stdout=subprocess.DEVNULL)
        return self.seed

    def fresh(self):
        database = os.path.join(work, "run.sqlite")
        self.drop()
        shutil.copy(self.seed, database)
        return database

    def drop(self):
        database = os.path.join(work, "run.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.remove(database + suffix)


class PostgreSQLCluster:
    """A throwaway cluster in a temporary folder, stopped by `stop`."""

    def __init__(self):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
        if not found:
            raise SystemExit("bench-travel: no PostgreSQL (initdb) found")
        self.bin = os.path.dirname(found[-1])
        self.folder = tempfile.mkdtemp(prefix="bt-pg-", dir="/tmp")  # short: the socket path must fit 107 bytes
        self.prefix = []
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        data = os.path.join(self.folder, "data")
        subprocess.run(self.prefix + [f"{self.bin}/initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                                      "--locale=C", "--no-sync"], check=True, stdout=subprocess.DEVNULL)
        # The settings of scripts/bench-clone.sh: a small dedicated server, not a durable one.
        options = (f"-k {self.folder} -c listen_addresses='' -p 5432 -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c shared_buffers=256MB -c max_wal_size=4GB")
        subprocess.run(self.prefix + [f"{self.bin}/pg_ctl", "-D", data, "-l", os.path.join(self.folder, "server.log"), "-w",
                                      "-t", "60", "start", "-o", options], check=True, stdout=subprocess.DEVNULL)

    def uri(self, database):
        return f"postgresql://postgres@/{database}?host={self.folder}&port=5432"

    def sql(self, statement):
        subprocess.run([f"{self.bin}/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", "-h", self.folder, "-p", "5432", "-U", "postgres",
                        "-d", "postgres", "-c", statement], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, PGOPTIONS="-c client_min_messages=warning"))

    def stop(self):
        subprocess.run(self.prefix + [f"{self.bin}/pg_ctl", "-D", os.path.join(self.folder, "data"), "-m", "fast", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.folder, ignore_errors=True)


class PostgreSQLStore:
    name = "postgresql"

    def __init__(self, cluster):
        self.cluster = cluster

    def setup(self, bindir):
        self.cluster.sql("CREATE DATABASE seed")
        subprocess.run([f"{bindir}/clone-bench", "pg-setup", "--uri", self.cluster.uri("seed"), "--items", str(args.items),
                        "--blob-bytes", str(args.blob_bytes), "--model", model], check=True, stdout=subprocess.DEVNULL)
        return self.cluster.uri("seed")

    def fresh(self):
        self.drop()
        self.cluster.sql("CREATE DATABASE run TEMPLATE seed")
        return self.cluster.uri("run")

    def drop(self):
        self.cluster.sql("DROP DATABASE IF EXISTS run")


def measure(bindir, store, operation, document):
    process, port = serve(bindir, store.fresh())
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
        idle = peak_mib(process.pid, "VmRSS")
        start = time.perf_counter()
        if operation == "clone":
            connection.request("POST", "/notes/1/clone")
            response = connection.getresponse()
            body = response.read()
            objects = sum(json.loads(body)["created"].values())
        elif operation == "export":
            connection.request("GET", "/notes/1/export")
            response = connection.getresponse()
            last = b""
            with open(os.path.join(work, "export.ndjson"), "wb") as out:
                while chunk := response.read(1 << 20):
                    out.write(chunk)
                    last = (last + chunk)[-200:]
            objects = json.loads(last.strip().split(b"\n")[-1])["objects"]
        else:
            with open(document, "rb") as body:
                connection.request("POST", "/notes/import", body=body,
                                   headers={"Content-Type": "application/vnd.cloner.graph+x-ndjson",
                                            "Content-Length": str(os.path.getsize(document))})
                response = connection.getresponse()
                answer = response.read()
            objects = sum(json.loads(answer)["created"].values())
        seconds = time.perf_counter() - start
        if response.status not in (200, 201):
            raise SystemExit(f"{operation}: {response.status}")
        return objects, seconds, peak_mib(process.pid), idle
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait()
        store.drop()


def run(store):
    print(f"[{store.name}] load average before: {' '.join(load())}", flush=True)
    seed = store.setup(bindirs[0])
    document = os.path.join(work, f"note-{store.name}.ndjson")
    subprocess.run([f"{bindirs[0]}/cloner", "export", "--database", seed, "--model", model, "notes", "1", "--output", document],
                   check=True, stderr=subprocess.DEVNULL)
    print(f"[{store.name}] {args.items} items, document {os.path.getsize(document) / (1 << 20):.1f} MiB", flush=True)
    results = {(label, operation): [] for label in labels for operation in ("clone", "export", "import")}
    order = ["clone", "export", "import"]
    builds = list(zip(bindirs, labels))
    for round in range(args.rounds):
        # The operations rotate every round, and the builds take turns within each operation.
        for operation in order[round % 3:] + order[:round % 3]:
            for bindir, label in builds[round % len(builds):] + builds[:round % len(builds)]:
                objects, seconds, peak, idle = measure(bindir, store, operation, document)
                results[(label, operation)].append((objects, seconds, peak, idle))
                name = f"{label} {operation}" if len(builds) > 1 else operation
                print(f"[{store.name}] round {round + 1} {name:6} {objects} objects in {seconds:.2f} s = {objects / seconds:,.0f} "
                      f"objects/s, peak RSS {peak:.1f} MiB (idle {idle:.1f} MiB), load {' '.join(load())}", flush=True)
    for label in labels:
        clone_rate = statistics.median(o / s for o, s, _, _ in results[(label, "clone")])
        for operation in order:
            runs = results[(label, operation)]
            rate = statistics.median(o / s for o, s, _, _ in runs)
            seconds = statistics.median(s for _, s, _, _ in runs)
            peak = statistics.median(p for _, _, p, _ in runs)
            idle = statistics.median(i for _, _, _, i in runs)
            name = f"{label} {operation}" if len(builds) > 1 else operation
            print(f"[{store.name}] median {name:6} {seconds:.2f} s, {rate:,.0f} objects/s ({rate / clone_rate:.2f}× the clone), "
                  f"peak RSS {peak:.1f} MiB (+{peak - idle:.1f} MiB over the idle server)", flush=True)
    print(f"[{store.name}] load average after: {' '.join(load())}", flush=True)


try:
    for backend in backends:
        if backend == "sqlite":
            run(SQLiteStore())
        else:
            cluster = PostgreSQLCluster()
            run(PostgreSQLStore(cluster))
            cluster.stop()
            cluster = None
finally:
    if cluster:
        cluster.stop()
    shutil.rmtree(work, ignore_errors=True)
