import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Two real `cloner serve` processes on one PostgreSQL database behave as one service
/// (docs/architecture.md#replicas): what one writes the other reads, versions and `If-Match` agree, an
/// `Idempotency-Key` makes one clone whichever replicas its retries reach, jobs answer on every
/// replica, and a replica's death fails its running job on another once its lease runs out.
@Suite(
    "End to end: replicas on one PostgreSQL database", .serialized,
    .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
struct ReplicasEndToEndTests {
    typealias F = EndToEndFixture

    /// Two replicas started at the same moment on one fresh, empty database.
    static func startPair(lease: String = "15", environment extra: [String: String] = [:]) async throws
        -> (ServiceProcess, ServiceProcess, [TemporaryDirectory])
    {
        let uri = try PostgreSQLTestCluster.shared.createDatabase().uri(password: nil)
        let first = try TemporaryDirectory(), second = try TemporaryDirectory()
        let environment = ["CLONER_JOB_LEASE_SECONDS": lease].merging(extra) { _, new in new }
        async let a = ServiceProcess.start(directory: first.url, backend: .postgreSQL, environment: environment, sharedDatabase: uri)
        async let b = ServiceProcess.start(directory: second.url, backend: .postgreSQL, environment: environment, sharedDatabase: uri)
        return (try await a, try await b, [first, second])
    }

    @Test("draining one replica (SIGTERM) leaves the other serving: A's /readyz turns 503 in its grace, B's stays 200 and B reads and writes; A exits 0")
    func drainingOneReplicaLeavesTheOtherServing() async throws {
        // A grace long enough for a loaded machine to ask A within it: with 10 s, full parallel
        // runs at load averages of 15-18 reached A only after its listener had closed.
        let (a, b, directories) = try await Self.startPair(environment: ["CLONER_DRAIN_GRACE": "40", "CLONER_DRAIN_TIMEOUT": "90"])
        defer { a.stop(); b.stop(); for directory in directories { directory.remove() } }
        let created = try await a.client.post("/notes", F.note(#""name":"before the drain""#))
        #expect(created.status == 201)
        let location = try #require(created.header("Location"))
        #expect(try await b.client.get("/readyz").status == 200, "B sees the database")

        let signalled = ContinuousClock.now
        a.signal(SIGTERM)
        // A's drain has begun once it logs it (just before its /readyz turns 503).
        let draining = await a.stdout.jsonLine(within: .seconds(30)) { $0["message"] as? String == "draining" }
        try #require(draining != nil, "A logged no \"draining\" line within 30 s of SIGTERM")
        #expect(try await a.client.get("/readyz").status == 503, "A tells the load balancer it is leaving")
        #expect(ContinuousClock.now - signalled < .seconds(40), "A was asked within its grace")
        #expect(try await b.client.get("/readyz").status == 200)
        #expect(try await b.client.get(location).status == 200, "B reads what A wrote")
        #expect(try await b.client.post("/notes", F.note(#""name":"during the drain""#)).status == 201)
        #expect(await a.waitForExit(timeout: .seconds(90)) == 0)

        #expect(try await b.client.get("/readyz").status == 200, "B serves on after A is gone")
        #expect(try await b.count("Note") == 2)
    }

    @Test("started together on an empty database: both come up; A writes, B reads; If-Match across; jobs on both; one clone per key")
    func sharedState() async throws {
        let (a, b, directories) = try await Self.startPair()
        defer { a.stop(); b.stop(); for directory in directories { directory.remove() } }
        #expect(a.replicaID != nil && b.replicaID != nil && a.replicaID != b.replicaID, "each process logs its own replica id")

        // Write on A, read on B.
        let note = try await a.client.create("notes", F.richNote(name: "shared", tag: "t"))
        let noteID = try #require(F.int(note["_id"]))
        let read = try await b.client.get("/notes/\(noteID)")
        #expect(read.status == 200)
        #expect(try read.json()["name"] as? String == "shared")

        // An ETag from A holds on B; after B's change, A's old one is stale on A and B.
        let tag = try #require(try await a.client.get("/notes/\(noteID)").header("ETag"))
        #expect(read.header("ETag") == tag)
        let patched = try await b.client.patch("/notes/\(noteID)", #"{"name":"renamed"}"#, headers: [("If-Match", tag)])
        #expect(patched.status == 200, "\(patched.text)")
        #expect(try await b.client.patch("/notes/\(noteID)", #"{"name":"again"}"#, headers: [("If-Match", tag)]).status == 412)
        #expect(try await a.client.patch("/notes/\(noteID)", #"{"name":"again"}"#, headers: [("If-Match", tag)]).status == 412)
        #expect(try await a.client.get("/notes/\(noteID)").json()["name"] as? String == "renamed")

        // The same key on both replicas at the same moment: one clone.
        let key = [("Idempotency-Key", "both-\(UUID().uuidString)")]
        async let onA = a.client.post("/notes/\(noteID)/clone", "{}", headers: key)
        async let onB = b.client.post("/notes/\(noteID)/clone", "{}", headers: key)
        let answers = try await [onA, onB]
        #expect(try await a.count("Note") == 2, "exactly one clone: \(answers.map(\.text))")
        let created = answers.filter { $0.status == 201 }
        #expect(created.filter { $0.header("Idempotent-Replayed") == nil }.count == 1, "\(answers.map(\.status))")
        #expect(answers.allSatisfy { $0.status == 201 || ($0.status == 409 && $0.text.contains("\"in_progress\"")) })
        // Retries on either replica replay it; the key with another body is a 422 on both.
        let first = try #require(created.first { $0.header("Idempotent-Replayed") == nil })
        for replica in [a, b] {
            let replay = try await replica.client.post("/notes/\(noteID)/clone", "{}", headers: key)
            #expect(replay.status == 201 && replay.header("Idempotent-Replayed") == "true" && replay.body == first.body)
            let other = try await replica.client.post("/notes/\(noteID)/clone", #"{"set":{"name":"x"}}"#, headers: key)
            #expect(other.status == 422 && other.text.contains("idempotency_key_reused"))
        }
        #expect(try await a.count("Note") == 2)

        // An async job made on A answers on B.
        let accepted = try await a.client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")])
        #expect(accepted.status == 202)
        let job = try await JobsServiceTests.waitForJob(b.client, try #require(accepted.header("Location")))
        #expect(job["status"] as? String == "succeeded", "\(job)")
        #expect(try await a.count("Note") == 3)

        // Clones of two different roots, one on each replica, side by side.
        let other = try await b.client.create("notes", F.richNote(name: "other", tag: "u"))
        let otherID = try #require(F.int(other["_id"]))
        async let cloneA = a.client.post("/notes/\(noteID)/clone", "{}")
        async let cloneB = b.client.post("/notes/\(otherID)/clone", "{}")
        let pair = try await [cloneA, cloneB]
        #expect(pair.map(\.status) == [201, 201], "\(pair.map(\.text))")
        #expect(try await a.count("Note") == 6)
    }

    @Test(
        "kill -9 of a replica running a long async clone: the other fails it within lease + interval, nothing of it is written, a retry of its key clones once")
    func deadReplicasJobFails() async throws {
        let (a, b, directories) = try await Self.startPair(lease: "2")
        defer { a.stop(); b.stop(); for directory in directories { directory.remove() } }
        let items = 60_000
        let noteID = try await a.seedLargeNote(items: items, name: "long")
        let headers = [("Idempotency-Key", "dead-\(UUID().uuidString)"), ("Prefer", "respond-async")]
        let body = #"{"set":{"name":"copy"}}"#
        let accepted = try await a.client.post("/notes/\(noteID)/clone", body, headers: headers)
        #expect(accepted.status == 202, "\(accepted.text)")
        let location = try #require(accepted.header("Location"))
        var running = false
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let status = try await a.client.get(location).json()["status"] as? String
            if status == "running" { running = true; break }
            if status != "queued" { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        try #require(running, "the clone finished before it could be interrupted; seed more items")
        // The other replica reads the job as running too (its row says so before the clone's
        // transaction commits anything).
        #expect(try await b.client.get(location).json()["status"] as? String == "running")
        a.signal(SIGKILL)
        let killed = ContinuousClock.now
        #expect(await a.waitForExit(timeout: .seconds(30)) != nil)

        // B sees the job as another replica's until its lease runs out, then failed.
        var job: [String: Any] = [:]
        while ContinuousClock.now - killed < .seconds(20) {
            job = try await b.client.get(location).json()
            if job["status"] as? String == "failed" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let took = ContinuousClock.now - killed
        #expect(job["status"] as? String == "failed", "\(job)")
        #expect((job["error"] as? [String: Any])?["code"] as? String == "job_interrupted")
        // lease 2 s + a scan every 2/3 s, and some slack for a loaded machine.
        #expect(took < .seconds(6), "failed after \(took)")
        #expect(try await b.count("Note") == 1, "the clone rolled back")
        #expect(try await b.count("Item") == items)

        // The key's answer pointed at the failed job: a retry on B clones, once.
        let retry = try await b.client.post("/notes/\(noteID)/clone", body, headers: headers)
        #expect(retry.status == 202, "\(retry.text)")
        let newLocation = try #require(retry.header("Location"))
        #expect(newLocation != location)
        let finished = try await JobsServiceTests.waitForJob(b.client, newLocation)
        #expect(finished["status"] as? String == "succeeded", "\(finished)")
        #expect(try await b.count("Note") == 2)
        #expect(try await b.count("Item") == 2 * items)
        let replay = try await b.client.post("/notes/\(noteID)/clone", body, headers: headers)
        #expect(replay.header("Location") == newLocation && replay.header("Idempotent-Replayed") == "true")
    }
}

extension ServiceProcess {
    /// The replica id the process logged when it started listening.
    var replicaID: String? {
        stdout.text.split(separator: "\n").first { $0.contains("\"listening\"") }
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["replica"] as? String
    }
}
