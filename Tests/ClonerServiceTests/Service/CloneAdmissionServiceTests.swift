import ClonerServiceTestSupport
import ClonerStore
import Foundation
import Testing

/// Clone admission by time: clones past `maxConcurrentClones` wait for their turn instead of being
/// refused; only `maxQueuedClones` in flight (a memory bound) or an estimated wait past the writer
/// wait answers 503, with a `Retry-After`.
@Suite("Service: clone admission")
struct CloneAdmissionServiceTests {
    typealias F = EndToEndFixture

    /// A note, and a first clone of it held inside its job: SQLite's write lock is taken from
    /// outside the service, so the job waits for it (the store's busy timeout) and keeps its place
    /// until `blocker` rolls back.
    static func holdFirstClone(_ service: TestService) async throws
        -> (note: Int, blocker: SQLiteConnection, first: Task<ClientResponse, any Error>)
    {
        let client = service.client
        let note = try await client.create("notes", F.richNote(name: "busy", tag: "t"))
        let noteID = try #require(F.int(note["_id"]))
        let blocker = try SQLiteConnection(path: service.databasePath)
        try blocker.execute("BEGIN IMMEDIATE")
        let first = Task { try await client.post("/notes/\(noteID)/clone", "{}") }
        try await Task.sleep(for: .milliseconds(400))
        return (noteID, blocker, first)
    }

    @Test("with one clone running at a time, clones arriving while it is held wait their turn, sync and async, and all are made")
    func clonesPastTheRunningLimitWait() async throws {
        try await TestService.withService(environment: ["CLONER_MAX_CONCURRENT_CLONES": "1", "CLONER_WRITER_WAIT_SECONDS": "600"]) { service in
            let client = service.client
            // The first clone holds the only running place.
            let (noteID, blocker, first) = try await Self.holdFirstClone(service)
            let second = Task { try await client.post("/notes/\(noteID)/clone", "{}") }
            let third = Task { try await client.post("/notes/\(noteID)/clone", #"{"copies":[{"set":{"name":"a"}},{}]}"#) }
            // The 202 itself waits for the job's row, a write behind the held lock.
            let async = Task { try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")]) }
            #expect(try await client.post("/notes/\(noteID)/clone", #"{"exclude":["nope"]}"#).status == 422)
            try await Task.sleep(for: .milliseconds(300))

            try blocker.execute("ROLLBACK")
            let accepted = try await async.value
            #expect(accepted.status == 202, "\(accepted.text)")
            let answers = try await [first.value, second.value, third.value]
            #expect(answers.map(\.status) == [201, 201, 201], "\(answers.map(\.text))")
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
            let (noteID, blocker, first) = try await Self.holdFirstClone(service)

            let refused = try await client.post("/notes/\(noteID)/clone", "{}")
            #expect(refused.status == 503, "\(refused.text)")
            #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
            #expect(refused.text.contains("maxQueuedClones"))
            let refusedAsync = try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")])
            #expect(refusedAsync.status == 503, "\(refusedAsync.text)")
            #expect(try await client.post("/notes/\(noteID)/clone", #"{"exclude":["nope"]}"#).status == 422)

            try blocker.execute("ROLLBACK")
            #expect(try await first.value.status == 201)
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
