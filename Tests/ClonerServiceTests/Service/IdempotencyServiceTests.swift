import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `Idempotency-Key` on clones (docs/architecture.md#the-clone-answer): a retry gets the first answer, never a second copy.
@Suite("Service: idempotency")
struct IdempotencyServiceTests {
    typealias F = EndToEndFixture

    @Test("same key and body: the same answer and one clone; same key, other body: 422 idempotency_key_reused", arguments: StoreBackendKind.available)
    func retries(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let note = try await client.create("notes", F.richNote(name: "once", tag: "t"))
                let noteID = try #require(F.int(note["_id"]))
                let key = [("Idempotency-Key", "retry-\(UUID().uuidString)")]
                let body = #"{"set":{"name":"copy"}}"#

                let first = try await client.post("/notes/\(noteID)/clone", body, headers: key)
                #expect(first.status == 201)
                let second = try await client.post("/notes/\(noteID)/clone", body, headers: key)
                #expect(second.status == 201)
                #expect(second.body == first.body)
                #expect(second.header("Location") == first.header("Location"))
                #expect(second.header("Idempotent-Replayed") == "true")
                #expect(try await service.count("Note") == 2, "one original, one clone")
                #expect(try await service.count("Item") == 4)

                let other = try await client.post("/notes/\(noteID)/clone", #"{"set":{"name":"another"}}"#, headers: key)
                #expect(other.status == 422)
                #expect(try other.json()["code"] as? String == "idempotency_key_reused")
                let cloneID = try first.cloneID()
                let otherPath = try await client.post("/notes/\(cloneID)/clone", body, headers: key)
                #expect(otherPath.status == 422, "another source with the same key")
                #expect(try await service.count("Note") == 2)

                // A dry run with a key replays too, and writes nothing.
                let dryKey = [("Idempotency-Key", "dry-\(UUID().uuidString)")]
                let dry = try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#, headers: dryKey)
                #expect(dry.status == 200)
                #expect(try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#, headers: dryKey).body == dry.body)
                #expect(try await service.count("Note") == 2)

                let tooLong = try await client.post("/notes/\(noteID)/clone", body, headers: [("Idempotency-Key", String(repeating: "k", count: 300))])
                #expect(tooLong.status == 422)
            }
        }
    }

    @Test("concurrent requests with one key make exactly one clone; the others replay it or answer 409 in_progress", arguments: StoreBackendKind.available)
    func concurrentRetries(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let note = try await client.create("notes", F.richNote(name: "race", tag: "t"))
                let noteID = try #require(F.int(note["_id"]))
                let key = "race-\(UUID().uuidString)"
                // Eight requests at once, each on a thread of its own (see `Blocking`).
                let responses = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
                    for _ in 0..<8 {
                        group.addTask { try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Idempotency-Key", key)]) }
                    }
                    var all: [ClientResponse] = []
                    for try await response in group { all.append(response) }
                    return all
                }
                #expect(responses.count == 8)
                // The key is reserved before the clone starts: a retry arriving while it runs is
                // told so (409 in_progress), one arriving after it replays its answer.
                let answered = responses.filter { $0.status == 201 }
                let waiting = responses.filter { $0.status == 409 }
                #expect(answered.count + waiting.count == 8, "\(responses.map(\.status))")
                #expect(waiting.allSatisfy { $0.text.contains("\"in_progress\"") && $0.header("Retry-After") != nil })
                #expect(Set(answered.map(\.body)).count == 1, "every replay is the first answer")
                #expect(Set(answered.compactMap { $0.header("Location") }).count == 1)
                #expect(answered.filter { $0.header("Idempotent-Replayed") == nil }.count == 1, "exactly one did the work")
                let after = try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Idempotency-Key", key)])
                #expect(after.status == 201 && after.header("Idempotent-Replayed") == "true" && after.body == answered.first?.body)
                #expect(try await service.count("Note") == 2)
                #expect(try await service.count("Item") == 4)
            }
        }
    }

    @Test(
        "a retry while the key's clone runs answers 409 in_progress with Retry-After; once it has finished, the replay", arguments: StoreBackendKind.available)
    func retryWhileRunning(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // Large enough (400,001 objects) that the clone outlasts the two requests below on a
            // loaded machine.
            let items = 200_000
            let noteID = try await service.seedLargeNote(items: items, name: "slow")
            let key = [("Idempotency-Key", "slow-\(UUID().uuidString)")]
            async let first = client.post("/notes/\(noteID)/clone", "{}", headers: key)
            // Seen running, then retried at once, all on a thread of its own: awaiting between the
            // steps would wait for a turn of the cooperative pool, which a loaded parallel run may
            // hold for longer than the clone takes.
            let (running, during, other) = try await Blocking.run {
                let deadline = ContinuousClock.now + .seconds(60)
                var running = try client.metricNow("cloner_jobs_in_flight")
                while running != 1 && ContinuousClock.now < deadline {
                    usleep(2_000)
                    running = try client.metricNow("cloner_jobs_in_flight")
                }
                let during = try client.requestNow("POST", "/notes/\(noteID)/clone", headers: key, body: "{}")
                let other = try client.requestNow("POST", "/notes/\(noteID)/clone", headers: key, body: #"{"set":{"name":"x"}}"#)
                return (running, during, other)
            }
            #expect(running == 1, "the first clone is running")
            let answer = try await first
            #expect(answer.status == 201, "\(answer.text)")
            #expect(during.status == 409, "\(during.text)")
            #expect(during.text.contains("\"in_progress\"") && during.header("Retry-After") != nil)
            #expect(other.status == 422, "another request with the key, even while it runs: \(other.text)")
            let after = try await client.post("/notes/\(noteID)/clone", "{}", headers: key)
            #expect(after.status == 201 && after.header("Idempotent-Replayed") == "true" && after.body == answer.body)
            #expect(try await service.count("Note") == 2)
            #expect(try await service.count("Item") == 2 * items)
        }
    }
}
