import ClonerStore
import Foundation
import Testing

/// `maxConcurrentClones` (`CLONER_MAX_CONCURRENT_CLONES`): clones beyond the limit answer 503 with
/// `Retry-After` before anything is queued, and a finished clone gives its slot back.
@Suite("End to end: bounded concurrent clones")
struct CloneLimitEndToEndTests {
    typealias F = EndToEndFixture

    @Test("with a limit of 1, a second clone while one runs is a 503 + Retry-After, sync or async; the slot comes back")
    func aClonePastTheLimitIsRefused() async throws {
        try await ServiceProcess.withService(environment: ["CLONER_MAX_CONCURRENT_CLONES": "1"]) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "busy", tag: "t"))
            let noteID = try #require(F.int(note["_id"]))

            // Hold SQLite's write lock from outside the service: the first clone's job waits for it
            // (the store's busy timeout), keeping its slot all the while.
            let blocker = try SQLiteConnection(path: service.databasePath)
            try blocker.execute("BEGIN IMMEDIATE")
            let first = Task { try await client.post("/notes/\(noteID)/clone", "{}") }
            try await Task.sleep(for: .milliseconds(500))

            let refused = try await client.post("/notes/\(noteID)/clone", "{}")
            #expect(refused.status == 503, "\(refused.text)")
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.text.contains("maxConcurrentClones"))
            let refusedAsync = try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")])
            #expect(refusedAsync.status == 503, "\(refusedAsync.text)")
            #expect(refusedAsync.header("Retry-After") == "1")
            // A bad request is still told what is wrong, not to retry.
            #expect(try await client.post("/notes/\(noteID)/clone", #"{"exclude":["nope"]}"#).status == 422)

            try blocker.execute("ROLLBACK")
            let answer = try await first.value
            #expect(answer.status == 201, "\(answer.text)")
            #expect(try await service.count("Note") == 2, "only the first clone was made")

            // The slot is free again, for a synchronous clone and then an asynchronous one.
            #expect(try await client.post("/notes/\(noteID)/clone", "{}").status == 201)
            let accepted = try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202, "\(accepted.text)")
            let job = try await JobsEndToEndTests.waitForJob(client, try #require(accepted.header("Location")))
            #expect(job["status"] as? String == "succeeded")
            var again = try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#)
            for _ in 0..<100 where again.status == 503 {
                // The job's slot is given back just after its row reads succeeded.
                try await Task.sleep(for: .milliseconds(20))
                again = try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#)
            }
            #expect(again.status == 200, "\(again.text)")
        }
    }
}
