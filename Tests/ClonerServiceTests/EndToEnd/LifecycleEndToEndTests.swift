import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Process lifecycle (docs/architecture.md#signals-and-drain): graceful drain on SIGTERM, and crash safety under kill -9.
@Suite("End to end: lifecycle")
struct LifecycleEndToEndTests {
    typealias F = EndToEndFixture

    /// Polls (bounded) until connecting to `port` is refused: the listener is closed.
    static func waitUntilRefused(port: Int, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            do {
                let probe = try RawClient(port: port, timeout: 2)
                probe.close()
            } catch {
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test("SIGTERM: stops accepting, /readyz turns 503, in-flight requests and clones complete, exit 0")
    func gracefulDrain() async throws {
        // Generous HTTP timeouts: the half-sent requests below must outlive a loaded machine.
        let timeouts = [
            "CLONER_HTTP_HEADER_TIMEOUT": "120", "CLONER_HTTP_BODY_READ_TIMEOUT": "120", "CLONER_HTTP_BODY_TIMEOUT": "120",
        ]
        try await ServiceProcess.withService(environment: timeouts, arguments: ["--drain-timeout", "120"]) { service in
            let client = service.client
            // Large enough to still be running when the signal comes (a few hundred ms).
            let items = 10000
            let noteID = try await service.seedLargeNote(items: items, name: "drain")
            let asyncItems = 3000
            let asyncNoteID = try await service.seedLargeNote(items: asyncItems, name: "drain-async")

            // A large synchronous clone, running when the signal arrives if we can catch it.
            let cloneTask = Task { try await client.post("/notes/\(noteID)/clone", nil) }
            let cloneFinished = SharedResults<Bool>()
            Task {
                _ = try? await cloneTask.value
                cloneFinished.append(true)
            }
            var sawCloneRunning = false
            let watchDeadline = ContinuousClock.now + .seconds(20)
            while !sawCloneRunning && ContinuousClock.now < watchDeadline && cloneFinished.all.isEmpty {
                sawCloneRunning = (try? await client.metric("cloner_jobs_in_flight")) == 1
            }

            // And an asynchronous one, accepted just before the signal: the drain waits for jobs too.
            let accepted = try await client.post("/notes/\(asyncNoteID)/clone", nil, headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202)
            let jobLocation = try #require(accepted.header("Location"))

            // A request whose head is not finished, and a create whose body is half sent: both in
            // flight when the signal arrives (a connection between requests is closed at once).
            let readiness = try RawClient(port: service.port, timeout: 60)
            readiness.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let body = Array(F.note(#""name":"sent during the drain""#).utf8)
            let upload = try RawClient(port: service.port, timeout: 60)
            upload.send("POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
            upload.send(Array(body[..<10]))
            // Wait for the event loops to read those bytes: a connection with nothing read yet
            // counts as idle and is closed at the start of the drain.
            try await eventually("the server reading the half-sent head and body", timeout: .seconds(60)) {
                readiness.serverHasReadEverything && upload.serverHasReadEverything
            }

            service.signal(SIGTERM)
            #expect(await Self.waitUntilRefused(port: service.port, timeout: .seconds(30)), "the listener stays open after SIGTERM")

            readiness.send("\r\n")
            let ready = try await readiness.receiveResponse()
            #expect(ready.status == 503, "/readyz during the drain: \(ready.status) \(ready.text)")
            #expect(ready.text.contains("draining"))
            #expect(ready.header("Connection")?.lowercased() == "close")

            upload.send(Array(body[10...]))
            let created = try await upload.receiveResponse()
            #expect(created.status == 201, "the half-sent create completes: \(created.text)")

            let clone = try await cloneTask.value
            #expect(clone.status == 201, "the clone in flight completes: \(clone.text)")
            let cloneID = try clone.cloneID()

            let status = await service.waitForExit(timeout: .seconds(150))
            #expect(status == 0, "exit status after SIGTERM")
            #expect(service.stdout.jsonLines.contains { $0["message"] as? String == "draining" })
            #expect(service.stdout.jsonLines.contains { $0["message"] as? String == "stopped" })
            if !sawCloneRunning { print("note: the clone finished before SIGTERM; its completion was not observed under drain") }

            // Everything answered was committed.
            #expect(try await service.count("Item", where: "note = \(cloneID)") == items)
            #expect(try await service.count("Note", where: "name = 'sent during the drain'") == 1)
            #expect(try await service.sql("PRAGMA integrity_check;") == "ok")

            // The job ran to the end before the process exited: a restart reads it succeeded.
            let restarted = try await ServiceProcess.start(directory: service.directory)
            defer { restarted.stop() }
            let job = try await restarted.client.get(jobLocation).json()
            #expect(job["status"] as? String == "succeeded", "\(job)")
            let asyncCloneID = try #require(F.int(((job["result"] as? [String: Any])?["clone"] as? [String: Any])?["id"]))
            #expect(try await restarted.count("Item", where: "note = \(asyncCloneID)") == asyncItems)
        }
    }

    @Test("SIGTERM with a request that never finishes: the drain timeout bounds the shutdown, exit 0")
    func drainTimeout() async throws {
        try await ServiceProcess.withService(arguments: ["--drain-timeout", "1"]) { service in
            let stuck = try RawClient(port: service.port, timeout: 60)
            stuck.send("POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            // In flight, not idle, when the signal comes: the server has read what was sent.
            try await eventually("the server reading the stuck request", timeout: .seconds(60)) { stuck.serverHasReadEverything }
            let started = ContinuousClock.now
            service.signal(SIGTERM)
            let status = await service.waitForExit(timeout: .seconds(60))
            #expect(status == 0)
            #expect(ContinuousClock.now - started < .seconds(30), "a 1 s drain timeout, with a generous margin")
            // Closed by the server (end of file, possibly after an error answer), not left open
            // until the client's own timeout, which would throw.
            let rest = try await stuck.receive()
            #expect(rest.isEmpty || String(decoding: rest, as: UTF8.self).hasPrefix("HTTP/1.1 "))
        }
    }

    @Test("SIGINT (Ctrl-C in a terminal) drains the same way: exit 0, the data committed")
    func interrupt() async throws {
        try await ServiceProcess.withService { service in
            let created = try await service.client.post("/notes", F.note(#""name":"before ctrl-c""#))
            #expect(created.status == 201)
            service.signal(SIGINT)
            #expect(await service.waitForExit(timeout: .seconds(60)) == 0)
            #expect(service.stdout.jsonLines.contains { $0["message"] as? String == "stopped" })
            #expect(try await service.count("Note", where: "name = 'before ctrl-c'") == 1)
        }
    }

    /// What must not change: the source's row, its items and their data (SQL both dialects read).
    static func sourceFingerprint(_ service: some RunningService, note: Int) async throws -> String {
        try await service.sql(
            """
            SELECT n."_version", n.id, n.name, (SELECT count(*) FROM "Item" i WHERE i.note = n."_id"), \
            (SELECT count(*) FROM "ItemData" d JOIN "Item" i ON i."_id" = d.item WHERE i.note = n."_id"), \
            (SELECT sum(i."_version") FROM "Item" i WHERE i.note = n."_id") FROM "Note" n WHERE n."_id" = \(note);
            """)
    }

    /// Mid-clone: on PostgreSQL a session is inside the copier's transaction — running one of its
    /// statements on the scratch tables, or between two of them (idle in transaction, the last
    /// one shown), which widens the window a poll can see to the whole copy; on SQLite the job
    /// reads `running` (the writer holds the file meanwhile). On PostgreSQL the test's own session
    /// (`watcher`) asks, so that a poll takes a round trip rather than a psql process: on a loaded
    /// machine a process per poll let a whole copy pass between two polls. Blocking: the caller
    /// polls on a thread of its own, never waiting for a turn of the cooperative pool between polls.
    static func cloneIsCopying(_ client: ServiceClient, job: String, watcher: PostgreSQLConnection?, file: SQLiteConnection?) throws -> Bool {
        if let file { return Self.holdsTheWriteLock(file) }
        guard let watcher else {
            return try client.requestNow("GET", job).json()["status"] as? String == "running"
        }
        return try watcher.query(
            """
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() \
            AND state IN ('active', 'idle in transaction') AND query LIKE '%\\_clone\\_%'
            """)[0].int64(0) != 0
    }

    /// SQLite's copy holds the file's write lock from its BEGIN IMMEDIATE to its COMMIT, which a
    /// second connection sees at once (`BEGIN IMMEDIATE` busy, no waiting) without a round trip
    /// through the loaded server, whose answer could come after a whole copy. Held for 30 ms in a
    /// row it is the copy, not the quick write of a job's row or lease.
    static func holdsTheWriteLock(_ file: SQLiteConnection) -> Bool {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .milliseconds(30) {
            if (try? file.execute("BEGIN IMMEDIATE")) != nil {
                try? file.execute("ROLLBACK")
                return false
            }
            usleep(500)
        }
        return true
    }

    /// Starts the clone asynchronously and polls, on a thread of its own, until it is seen
    /// copying or has ended; answers what it saw, the job's location and the job as last read.
    static func startAndWatchClone(
        _ client: ServiceClient, note: Int, backend: StoreBackendKind, database: String
    ) async throws -> (copying: Bool, job: String, last: String) {
        let accepted = try await client.post("/notes/\(note)/clone", nil, headers: [("Prefer", "respond-async")])
        #expect(accepted.status == 202)
        let job = try #require(accepted.header("Location"))
        let watched = backend == .postgreSQL ? database : nil
        let (copying, last) = try await Blocking.run {
            let watcher = try watched.map { try PostgreSQLConnection(uri: $0) }
            let file = try backend == .sqlite ? SQLiteConnection(path: database, options: .init(busyTimeoutMilliseconds: 0)) : nil
            let deadline = ContinuousClock.now + .seconds(60)
            var last = ""
            while ContinuousClock.now < deadline {
                if try Self.cloneIsCopying(client, job: job, watcher: watcher, file: file) { return (true, last) }
                let polled = try client.requestNow("GET", job)
                last = polled.text
                let status = try polled.json()["status"] as? String
                if status != "queued" && status != "running" { break }
                usleep(2_000)
            }
            return (false, last)
        }
        return (copying, job, last)
    }

    @Test(
        "kill -9 in the middle of a large clone: after restart the clone is whole or absent, the source unchanged, the database intact, the job failed or succeeded with it",
        arguments: StoreBackendKind.available)
    func crashDuringClone(backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Large enough (400,001 objects) that the copy mostly outlasts the polling below on a
        // loaded machine: both stores copy 80,001 objects in well under a second.
        let items = 200_000
        var jobLocation = "", lastJob = ""
        var sawCopying = false
        var finishedBeforeSeen = 0
        let database: String
        let noteID: Int
        let fingerprint: String
        // A short lease: the restarted process (another replica) fails the dead one's job once it runs out.
        let lease = ["CLONER_JOB_LEASE_SECONDS": "1"]
        do {
            let service = try await ServiceProcess.start(directory: directory.url, backend: backend, environment: lease)
            defer { service.stop() }
            database = service.databaseLocation
            let client = service.client
            noteID = try await service.seedLargeNote(items: items, name: "crash")
            fingerprint = try await Self.sourceFingerprint(service, note: noteID)
            // On PostgreSQL the copy is held mid-way, however fast it runs: a lock that lets it
            // read and lock its source but not insert into ItemData, given up only after the kill.
            var holder = try (backend == .postgreSQL ? PostgreSQLConnection(uri: database) : nil)
            try holder?.execute("BEGIN; LOCK TABLE \"ItemData\" IN SHARE ROW EXCLUSIVE MODE")
            defer { try? holder?.execute("ROLLBACK") }
            // A copy that ends between two polls (a starved test thread on a loaded machine) is
            // whole and proves nothing here: clone again, counting it, until one is seen copying.
            for _ in 0..<4 where !sawCopying {
                if !jobLocation.isEmpty {
                    #expect(lastJob.contains(#""status":"succeeded""#), "a clone not seen copying ended: \(lastJob)")
                    finishedBeforeSeen += 1
                }
                (sawCopying, jobLocation, lastJob) = try await Self.startAndWatchClone(
                    client, note: noteID, backend: backend, database: database)
            }
            #expect(sawCopying, "the clone was never seen copying; the job last read: \(lastJob)")
            let running = try await client.get(jobLocation).json()
            if running["status"] as? String == "running", let progress = running["progress"] as? [String: Any],
                let planned = F.int(progress["planned"]), planned > 0
            {
                #expect(planned == 2 * items + 1, "progress counts every object of the clone")
                #expect((F.int(progress["written"]) ?? -1) <= planned)
            }
            service.signal(SIGKILL)
            #expect(await service.waitForExit(timeout: .seconds(30)) != nil)
            // The held copy goes on from where it waited, with no one left to hear it.
            try holder?.execute("ROLLBACK")
            holder = nil
            if backend == .postgreSQL {
                // PostgreSQL runs to its end what the killed server had sent: a COMMIT it had
                // received still commits, after the client is gone. What the database holds is
                // final once the killed server's sessions have ended (the watcher's own aside).
                let watcher = try PostgreSQLConnection(uri: database)
                let ended = ContinuousClock.now + .seconds(60)
                let sessions = """
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                    AND backend_type = 'client backend' AND pid <> pg_backend_pid()
                    """
                var left = try watcher.query(sessions)[0].int64(0)
                while left != 0 && ContinuousClock.now < ended {
                    try await Task.sleep(for: .milliseconds(50))
                    left = try watcher.query(sessions)[0].int64(0)
                }
                #expect(left == 0, "sessions of the killed server still open")
            }
        }

        let restarted = try await ServiceProcess.start(
            directory: directory.url, backend: backend, environment: lease,
            sharedDatabase: backend == .postgreSQL ? database : nil)
        defer { restarted.stop() }
        let client = restarted.client
        #expect(try await client.get("/readyz").status == 200)
        if backend == .sqlite {
            #expect(try await restarted.sql("PRAGMA integrity_check;") == "ok")
            #expect(try await restarted.sql("PRAGMA foreign_key_check;") == "")
        }

        // Whole or absent: every note owns all its items, and every item its ItemData. (On
        // PostgreSQL a transaction the killed server had not committed is rolled back with its
        // session; one whose COMMIT had gone out is whole, its job row with it.)
        // The source, the clones that ended before one was seen copying, and the killed one or not.
        let notes = try await restarted.count("Note")
        let absent = 1 + finishedBeforeSeen
        #expect(notes == absent || notes == absent + 1, "whole or absent: \(notes) notes")
        let perNote = try await restarted.sql("SELECT count(*) FROM \"Item\" GROUP BY note ORDER BY note;")
        #expect(perNote.split(separator: "\n").map(String.init) == Array(repeating: "\(items)", count: notes))
        #expect(try await restarted.count("Item") == notes * items)
        #expect(try await restarted.count("ItemData") == notes * items)
        #expect(try await restarted.count("ItemData", where: "item IS NULL") == 0)
        #expect(try await Self.sourceFingerprint(restarted, note: noteID) == fingerprint, "the source is unchanged")

        var job = try await client.get(jobLocation).json()
        let leaseDeadline = ContinuousClock.now + .seconds(10)
        while notes == absent, job["status"] as? String != "failed", ContinuousClock.now < leaseDeadline {
            try await Task.sleep(for: .milliseconds(100))
            job = try await client.get(jobLocation).json()
        }
        if notes == absent {
            #expect(job["status"] as? String == "failed", "an interrupted job reads as failed: \(job)")
            #expect((job["error"] as? [String: Any])?["code"] as? String == "job_interrupted")
        } else {
            #expect(job["status"] as? String == "succeeded", "a committed clone has its succeeded row in the same transaction")
        }
        #expect(try await client.metric("cloner_jobs_in_flight") == 0)
        #expect(try await client.post("/notes", F.note(#""name":"after the crash""#)).status == 201, "writable after restart")
    }
}
