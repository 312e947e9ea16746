#!/usr/bin/env python3
"""Graphs-that-travel benchmark: a clone, an export and an import of the same note on the same
store, through the real server (release build), alternating round after round.

A seeded SQLite store (`clone-bench setup`: one note whose items each have item data, a memo
tagged with 2 of 50 tags and an attachment; 4 objects per item plus the note) is copied afresh
for every measurement, and each measurement runs in a fresh `cloner serve` process, so the peak
RSS printed (the server's VmHWM) is that operation's own, next to the idle server's RSS just before
the request. Prints objects/s and peak RSS per round and the medians.

usage: scripts/bench-travel.py [--items 25000] [--rounds 3] [--blob-bytes 4096] [--bindir DIR]
(--bindir: measure the cloner and clone-bench found there, say a copy of an earlier build, instead
of building the release products)
"""
import argparse, http.client, json, os, re, shutil, signal, statistics, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=25000)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--blob-bytes", type=int, default=4096)
parser.add_argument("--bindir")
args = parser.parse_args()
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
if args.bindir:
    bindir = os.path.abspath(args.bindir)
else:
    for product in ("clone-bench", "cloner"):
        subprocess.run(["swift", "build", "-c", "release", "--product", product], check=True, stdout=subprocess.DEVNULL)
    bindir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
work = tempfile.mkdtemp(prefix="bench-travel-")
model = os.path.abspath("config/model.json")


def load():
    return open("/proc/loadavg").read().split()[:3]


def serve(database):
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


def fresh():
    database = os.path.join(work, "run.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    shutil.copy(os.path.join(work, "seed.sqlite"), database)
    return database


def measure(operation, document):
    process, port = serve(fresh())
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


try:
    print(f"load average before: {' '.join(load())}")
    subprocess.run([f"{bindir}/clone-bench", "setup", "--db", os.path.join(work, "seed.sqlite"), "--items", str(args.items),
                    "--blob-bytes", str(args.blob_bytes), "--model", model], check=True, stdout=subprocess.DEVNULL)
    document = os.path.join(work, "note.ndjson")
    subprocess.run([f"{bindir}/cloner", "export", "--database", os.path.join(work, "seed.sqlite"), "--model", model,
                    "notes", "1", "--output", document], check=True, stderr=subprocess.DEVNULL)
    print(f"{args.items} items, document {os.path.getsize(document) / (1 << 20):.1f} MiB")
    results = {"clone": [], "export": [], "import": []}
    order = ["clone", "export", "import"]
    for round in range(args.rounds):
        for operation in order[round % 3:] + order[:round % 3]:
            objects, seconds, peak, idle = measure(operation, document)
            results[operation].append((objects, seconds, peak, idle))
            print(f"round {round + 1} {operation:6} {objects} objects in {seconds:.2f} s = {objects / seconds:,.0f} objects/s, "
                  f"peak RSS {peak:.1f} MiB (idle {idle:.1f} MiB), load {' '.join(load())}", flush=True)
    clone_rate = statistics.median(o / s for o, s, _, _ in results["clone"])
    for operation, runs in results.items():
        rate = statistics.median(o / s for o, s, _, _ in runs)
        peak = statistics.median(p for _, _, p, _ in runs)
        idle = statistics.median(i for _, _, _, i in runs)
        print(f"median {operation:6} {rate:,.0f} objects/s ({rate / clone_rate:.2f}× the clone), peak RSS {peak:.1f} MiB "
              f"(+{peak - idle:.1f} MiB over the idle server)")
    print(f"load average after: {' '.join(load())}")
finally:
    shutil.rmtree(work, ignore_errors=True)
