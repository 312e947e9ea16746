import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Jobs a user can see, watch and stop: `GET /jobs`, `DELETE /jobs/{id}`, `GET /jobs/{id}/events`.
@Suite("Service: listing, cancelling and watching jobs")
struct JobControlServiceTests {
    typealias F = EndToEndFixture

    /// Polls a job (bounded) until it reads `status`, failing at once on any other final status.
    static func waitForStatus(_ client: ServiceClient, _ location: String, _ status: String, timeout: Duration = .seconds(120)) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let job = try await client.get(location).json()
            let now = job["status"] as? String ?? ""
            if now == status { return job }
            guard ["queued", "running"].contains(now) else { throw ClientError("job \(location) ended \(now), not \(status): \(job)") }
            guard ContinuousClock.now < deadline else { throw ClientError("job \(location) still \(now) after \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Polls job `location` until it runs: in its transaction, or about to open it (a cancel then
    /// stops it before its work, or interrupts the statement it runs).
    static func waitUntilRunning(_ client: ServiceClient, _ location: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let job = try await client.get(location).json()
            if job["status"] as? String == "running" { return }
            guard job["status"] as? String == "queued" else { throw ClientError("job \(location) ended before it could be cancelled: \(job)") }
            guard ContinuousClock.now < deadline else { throw ClientError("job \(location) never started") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The `Location` of a 202, or an error naming what came instead.
    static func location(_ response: ClientResponse) throws -> String {
        guard response.status == 202, let location = response.header("Location") else {
            throw ClientError("expected a 202 with a Location: \(response.status) \(response.text)")
        }
        return location
    }

    /// A `DELETE /jobs/{id}` that stopped its job: 202 while the stop is underway, or 200 with the
    /// job reading `cancelled` when the stop was done by the time the answer was made (a statement
    /// interrupted at once, on a loaded machine, can roll back before the answer is written).
    static func stopped(_ response: ClientResponse) -> Bool {
        response.status == 202 || (response.status == 200 && (try? response.json()["status"] as? String) == "cancelled")
    }

    /// `waitUntilRunning` with blocking requests, for a thread of its own.
    static func waitUntilRunningNow(_ client: ServiceClient, _ location: String) throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let job = try client.requestNow("GET", location).json()
            if job["status"] as? String == "running" { return }
            guard job["status"] as? String == "queued" else { throw ClientError("job \(location) ended before it could be cancelled: \(job)") }
            guard ContinuousClock.now < deadline else { throw ClientError("job \(location) never started") }
            usleep(2_000)
        }
    }

    @Test("GET /jobs lists newest first in pages, filters by status, refuses bad parameters naming them", arguments: StoreBackendKind.available)
    func listing(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "listed", tag: "t"))
            let noteID = try #require(F.int(note["_id"]))
            var ids: [String] = []
            for _ in 0..<3 {
                let accepted = try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")])
                let location = try #require(accepted.header("Location"))
                _ = try await Self.waitForStatus(client, location, "succeeded")
                ids.append(String(location.dropFirst("/jobs/".count)))
            }
            let first = try await client.get("/jobs?limit=2")
            #expect(first.status == 200, "\(first.text)")
            let firstPage = try first.json()
            let firstIDs = (firstPage["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(firstIDs.count == 2)
            let next = try #require(firstPage["next"] as? String)
            let secondPage = try await client.get(next).json()
            let secondIDs = (secondPage["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(secondPage["next"] is NSNull)
            #expect(Set(firstIDs + secondIDs) == Set(ids) && firstIDs.count + secondIDs.count == 3)

            let succeeded = try await client.get("/jobs?status=succeeded").json()
            #expect((succeeded["data"] as? [[String: Any]])?.count == 3)
            #expect((succeeded["data"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "succeeded" } == true)
            #expect((try await client.get("/jobs?status=cancelled").json()["data"] as? [Any])?.isEmpty == true)
            for (query, field) in [("status=done", "status"), ("limit=0", "limit"), ("cursor=nonsense", "cursor"), ("colour=red", "colour")] {
                let refused = try await client.get("/jobs?\(query)")
                #expect(refused.status == 422, "\(query): \(refused.text)")
                #expect(F.errorFields(try refused.json()) == [field])
            }

            // A finished job cannot be cancelled; an unknown one is not found.
            let finished = try await client.delete("/jobs/\(ids[0])")
            #expect(finished.status == 409, "\(finished.text)")
            #expect(finished.header("Content-Type") == "application/problem+json")
            #expect(try await client.delete("/jobs/\(UUID().uuidString.lowercased())").status == 404)

            // A finished job's stream is its last event at once.
            let events = try await client.get("/jobs/\(ids[0])/events")
            #expect(events.status == 200)
            #expect(events.header("Content-Type") == "text/event-stream")
            #expect(events.text.hasPrefix("event: succeeded\ndata: {"), "\(events.text)")
            #expect(!events.text.contains("event: progress"))
        }
    }

    @Test(
        "DELETE stops a running clone (rolled back) and a queued one (never runs); their keys run again", arguments: StoreBackendKind.available)
    func cancelling(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_CONCURRENT_CLONES": "1"]) { service in
            let client = service.client
            // Large enough (400,001 objects) that the copy outlasts the requests below on a loaded machine.
            let items = 200_000
            let largeID = try await service.seedLargeNote(items: items, name: "large")
            let small = try await client.create("notes", F.richNote(name: "small", tag: "t"))
            let smallID = try #require(F.int(small["_id"]))
            let entities = ["Note", "Item", "ItemData", "Memo", "NoteDescription"]
            let rows = try await service.counts(entities)

            let runningKey = [("Prefer", "respond-async"), ("Idempotency-Key", "run-\(UUID().uuidString)")]
            let queuedKey = [("Prefer", "respond-async"), ("Idempotency-Key", "queue-\(UUID().uuidString)")]
            // The steps that race the clone run on a thread of their own with blocking requests:
            // awaiting between them would wait for turns of the cooperative pool, which a loaded
            // parallel run may hold for longer than the clone takes. On PostgreSQL the clone is
            // also held inside its transaction, at its first write of a Note, until the cancels
            // are answered — they then interrupt a statement for certain.
            let location = service.databaseLocation
            let (running, queuedEarly, answers) = try await Blocking.run { () throws -> (String, String?, [ClientResponse]) in
                let blocker = backend == .postgreSQL ? try PostgreSQLConnection(uri: location) : nil
                try blocker?.execute("BEGIN")
                try blocker?.execute("LOCK TABLE \"Note\" IN SHARE MODE")
                defer { try? blocker?.execute("ROLLBACK") }
                let running = try Self.location(client.requestNow("POST", "/notes/\(largeID)/clone", headers: runningKey, body: "{}"))
                try Self.waitUntilRunningNow(client, running)
                var answers: [ClientResponse] = []
                var queued: String?
                if backend != .sqlite {
                    // One clone runs at a time: this one waits behind the large one. (On SQLite its
                    // queued row would wait for the writer the large one holds.)
                    let waiting = try Self.location(client.requestNow("POST", "/notes/\(smallID)/clone", headers: queuedKey, body: "{}"))
                    answers.append(try client.requestNow("GET", waiting))
                    answers.append(try client.requestNow("DELETE", waiting))
                    queued = waiting
                }
                answers.append(try client.requestNow("DELETE", running))
                return (running, queued, answers)
            }
            if backend != .sqlite {
                #expect(try answers[0].json()["status"] as? String == "queued")
                #expect(Self.stopped(answers[1]), "\(answers[1].status) \(answers[1].text)")
            }
            #expect(answers.last.map(Self.stopped) == true, "\(answers.last?.status ?? 0) \(answers.last?.text ?? "")")
            _ = try await Self.waitForStatus(client, running, "cancelled")
            var queued = queuedEarly
            if backend == .sqlite {
                // Cancelled right after its 202, before its copy (400,001 objects) can end.
                let (waiting, stop) = try await Blocking.run {
                    let waiting = try Self.location(client.requestNow("POST", "/notes/\(largeID)/clone", headers: queuedKey, body: "{}"))
                    return (waiting, try client.requestNow("DELETE", waiting))
                }
                #expect(Self.stopped(stop), "\(stop.status) \(stop.text)")
                queued = waiting
            }
            let stopped = try #require(queued)
            _ = try await Self.waitForStatus(client, stopped, "cancelled")
            #expect(try await client.delete(running).status == 200, "already cancelled")
            #expect(try await client.get("\(running)/events").text.hasPrefix("event: cancelled\ndata: {"))
            #expect(try await client.metric("cloner_clones_total", labels: [#"result="cancelled""#], settlingAt: 2) == 2)
            #expect(try await service.counts(entities) == rows, "nothing of either clone remains, the sources unchanged")
            let listed = try await client.get("/jobs?status=cancelled").json()
            #expect((listed["data"] as? [[String: Any]])?.count == 2)

            // The keys were given back: a retry runs again, once.
            let retried = try await client.post("/notes/\(largeID)/clone", "{}", headers: runningKey)
            #expect(retried.status == 202, "\(retried.text)")
            let retriedLocation = try #require(retried.header("Location"))
            #expect(retriedLocation != running)
            _ = try await Self.waitForStatus(client, retriedLocation, "succeeded")
            let replay = try await client.post("/notes/\(largeID)/clone", "{}", headers: runningKey)
            #expect(replay.header("Location") == retriedLocation && replay.header("Idempotent-Replayed") == "true")
            #expect(try await service.count("Note") == rows[0] + 1)
            #expect(try await service.count("Item") == rows[1] + items)
            let again = try await client.post("/notes/\(smallID)/clone", "{}", headers: queuedKey)
            #expect(again.status == 202 && again.header("Idempotent-Replayed") == nil, "\(again.text)")
            #expect(again.header("Location") != stopped)
            _ = try await Self.waitForStatus(client, try #require(again.header("Location")), "succeeded")
            #expect(try await client.metric("cloner_jobs_in_flight", settlingAt: 0) == 0)
        }
    }

    @Test("DELETE stops a running import: cancelled, nothing of it written", arguments: StoreBackendKind.available)
    func cancellingAnImport(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // Large enough (100,001 objects) that the import still runs when the cancel comes.
            let noteID = try await service.seedLargeNote(items: 50_000, name: "exported")
            let document = try await client.get("/notes/\(noteID)/export").text
            let entities = ["Note", "Item", "ItemData"]
            let rows = try await service.counts(entities)
            // Cancelled right after its 202, on a thread of its own (see `watching`).
            let (location, stop) = try await Blocking.run {
                let headers = [("Content-Type", "application/vnd.cloner.graph+x-ndjson"), ("Prefer", "respond-async")]
                let location = try Self.location(client.requestNow("POST", "/notes/import", headers: headers, body: document))
                return (location, try client.requestNow("DELETE", location))
            }
            // On a loaded machine the import may not have started its work yet.
            #expect(Self.stopped(stop), "\(stop.status) \(stop.text)")
            let job = try await Self.waitForStatus(client, location, "cancelled")
            #expect(job["result"] == nil)
            #expect(try await service.counts(entities) == rows, "nothing of the import remains")
            #expect(try await client.metric("cloner_jobs_in_flight", settlingAt: 0) == 0)
        }
    }

    @Test("the events of a running clone: progress, then succeeded with the job, then the end", arguments: StoreBackendKind.available)
    func watching(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // Large enough that the clone still runs when the stream starts on a fast machine.
            let largeID = try await service.seedLargeNote(items: 200_000, name: "watched")
            // The stream is asked for at once, on a thread of its own: awaiting between the two
            // requests would wait for a turn of the cooperative pool, which a loaded parallel run
            // may hold for longer than the clone takes.
            let (location, events) = try await Blocking.run {
                let location = try Self.location(client.requestNow("POST", "/notes/\(largeID)/clone", headers: [("Prefer", "respond-async")], body: "{}"))
                return (location, try client.requestNow("GET", "\(location)/events"))
            }
            #expect(events.status == 200)
            #expect(events.header("Content-Type") == "text/event-stream")
            let text = events.text
            #expect(text.contains("event: progress\ndata: {"), "\(text.prefix(400))")
            let last = try #require(text.range(of: "event: succeeded\ndata: ", options: .backwards))
            #expect(text[last.upperBound...].hasSuffix("}\n\n"))
            let final = try JSONSerialization.jsonObject(with: Data(text[last.upperBound...].utf8)) as? [String: Any]
            #expect(final?["status"] as? String == "succeeded")
            #expect(final?["result"] != nil)
            #expect(try await client.get("\(location)/events").text.hasPrefix("event: succeeded"))
        }
    }
}
