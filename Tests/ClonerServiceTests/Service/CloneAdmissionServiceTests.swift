import ClonerConcurrency
import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Clone admission by time: clones past `maxConcurrentClones` wait for their turn instead of being
/// refused; only `maxQueuedClones` in flight (a memory bound) or an estimated wait past the writer
/// wait answers 503, with a `Retry-After`.
@Suite("Service: clone admission")
struct CloneAdmissionServiceTests {
    typealias F = EndToEndFixture

    /// An answer a request on a thread of its own will give.
    final class Pending: Sendable {
        private let answer = LockedValue<ClientResponse?>(nil)
        private let failure = LockedValue<String?>(nil)

        /// Sends `method path` now, on a thread of its own.
        init(_ client: ServiceClient, _ method: String, _ path: String, body: String?, headers: [(name: String, value: String)] = []) {
            let answer = self.answer, failure = self.failure
            Thread {
                do {
                    let response = try client.requestNow(method, path, headers: headers, body: body)
                    answer.withLock { $0 = response }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }.start()
        }

        /// The answer, once it came (blocking, bounded).
        func value(within limit: Duration = .seconds(120)) throws -> ClientResponse {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if let response = answer.withLock({ $0 }) { return response }
                if let error = failure.withLock({ $0 }) { throw ClientError(error) }
                usleep(5_000)
            }
            throw ClientError("no answer within \(limit)")
        }
    }

    /// A note, and a first clone of it held inside its job: SQLite's write lock is taken from
    /// outside the service, so the job waits for it (its connection's busy timeout) and keeps its
    /// place while `during` runs; then the lock is let go. All of it on a thread of its own, with
    /// blocking requests: awaiting between the steps would wait for turns of the cooperative pool,
    /// which a loaded parallel run may hold past that busy timeout.
    static func withFirstCloneHeld<T: Sendable>(
        _ service: TestService, _ during: @escaping @Sendable (ServiceClient, Int) throws -> T
    ) async throws -> (during: T, first: ClientResponse, note: Int) {
        let client = service.client
        let note = try await client.create("notes", F.richNote(name: "busy", tag: "t"))
        let noteID = try #require(F.int(note["_id"]))
        let path = service.databasePath
        return try await Blocking.run {
            let blocker = try SQLiteConnection(path: path)
            try blocker.execute("BEGIN IMMEDIATE")
            let first = Pending(client, "POST", "/notes/\(noteID)/clone", body: "{}")
            // The first clone has its place once its job is counted; it then waits on the lock.
            try eventuallyBlocking("the first clone's job started") { try client.metricNow("cloner_jobs_in_flight") >= 1 }
            let outcome: T
            do {
                outcome = try during(client, noteID)
            } catch {
                try? blocker.execute("ROLLBACK")
                throw error
            }
            try blocker.execute("ROLLBACK")
            return (outcome, try first.value(), noteID)
        }
    }

    @Test("with one clone running at a time, clones arriving while it is held wait their turn, sync and async, and all are made")
    func clonesPastTheRunningLimitWait() async throws {
        try await TestService.withService(environment: ["CLONER_MAX_CONCURRENT_CLONES": "1", "CLONER_WRITER_WAIT_SECONDS": "600"]) { service in
            let client = service.client
            // The first clone holds the only running place; three more arrive behind it.
            let (others, first, _) = try await Self.withFirstCloneHeld(service) { client, noteID -> [Pending] in
                let second = Pending(client, "POST", "/notes/\(noteID)/clone", body: "{}")
                let third = Pending(client, "POST", "/notes/\(noteID)/clone", body: #"{"copies":[{"set":{"name":"a"}},{}]}"#)
                // The 202 itself waits for the job's row, a write behind the held lock.
                let async = Pending(client, "POST", "/notes/\(noteID)/clone", body: "{}", headers: [("Prefer", "respond-async")])
                let bad = try client.requestNow("POST", "/notes/\(noteID)/clone", body: #"{"exclude":["nope"]}"#)
                guard bad.status == 422 else { throw ClientError("a bad clone answered \(bad.status): \(bad.text)") }
                // The two synchronous clones are queued behind the first before the lock goes.
                try eventuallyBlocking("three clones in flight") { try client.metricNow("cloner_jobs_in_flight") >= 3 }
                return [second, third, async]
            }
            let answers = try await Blocking.run { try others.map { try $0.value() } }
            let accepted = answers[2]
            #expect(accepted.status == 202, "\(accepted.text)")
            #expect([first, answers[0], answers[1]].map(\.status) == [201, 201, 201], "\([first, answers[0], answers[1]].map(\.text))")
            let job = try await JobsServiceTests.waitForJob(client, try #require(accepted.header("Location")))
            #expect(job["status"] as? String == "succeeded", "\(job)")
            #expect(try await service.count("Note") == 6, "the source, three single clones and two copies")
        }
    }

    @Test("past maxQueuedClones in flight a clone is a 503 naming the limit, with Retry-After; a bad request is still a 422; the place comes back")
    func aClonePastTheQueueBoundIsRefused() async throws {
        // The first clone waits on the held writer while the refusals are made: a writer wait far
        // above the default, so a test process busy with other suites cannot run it out.
        try await TestService.withService(environment: ["CLONER_MAX_QUEUED_CLONES": "1", "CLONER_WRITER_WAIT_SECONDS": "600"]) { service in
            let client = service.client
            let (answers, first, noteID) = try await Self.withFirstCloneHeld(service) { client, noteID in
                [
                    try client.requestNow("POST", "/notes/\(noteID)/clone", body: "{}"),
                    try client.requestNow("POST", "/notes/\(noteID)/clone", headers: [("Prefer", "respond-async")], body: "{}"),
                    try client.requestNow("POST", "/notes/\(noteID)/clone", body: #"{"exclude":["nope"]}"#),
                ]
            }
            let (refused, refusedAsync, bad) = (answers[0], answers[1], answers[2])
            #expect(refused.status == 503, "\(refused.text)")
            #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
            #expect(refused.text.contains("maxQueuedClones"))
            #expect(refusedAsync.status == 503, "\(refusedAsync.text)")
            #expect(bad.status == 422)

            #expect(first.status == 201, "\(first.text)")
            #expect(try await service.count("Note") == 2, "only the first clone was made")
            var again = try await client.post("/notes/\(noteID)/clone", "{}")
            for _ in 0..<100 where again.status == 503 {
                // The place is given back just after the answer is written.
                try await Task.sleep(for: .milliseconds(20))
                again = try await client.post("/notes/\(noteID)/clone", "{}")
            }
            #expect(again.status == 201, "\(again.text)")
        }
    }
}
