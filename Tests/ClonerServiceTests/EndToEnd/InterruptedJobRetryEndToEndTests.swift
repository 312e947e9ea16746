import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// An asynchronous clone's `Idempotency-Key` after a crash: the key's job was interrupted (its
/// clone rolled back), so a retry with the key must clone — once — instead of replaying the
/// failure for the key's whole retention.
@Suite("End to end: retrying an interrupted job")
struct InterruptedJobRetryEndToEndTests {
    typealias F = EndToEndFixture

    @Test("kill -9 during an async clone with an Idempotency-Key; after restart two concurrent retries start one new clone")
    func retryAfterCrash() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = 40_000
        let key = [("Idempotency-Key", "crash-\(UUID().uuidString)"), ("Prefer", "respond-async")]
        let body = #"{"set":{"name":"copy"}}"#
        var noteID = 0
        var firstLocation = ""
        var sawRunning = false
        let lease = ["CLONER_JOB_LEASE_SECONDS": "2"]
        do {
            let service = try await ServiceProcess.start(directory: directory.url, environment: lease)
            defer { service.stop() }
            let client = service.client
            noteID = try await service.seedLargeNote(items: items, name: "crash")
            let accepted = try await client.post("/notes/\(noteID)/clone", body, headers: key)
            #expect(accepted.status == 202)
            firstLocation = try #require(accepted.header("Location"))
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let status = try await client.get(firstLocation).json()["status"] as? String
                if status == "running" { sawRunning = true; break }
                if status != "queued" { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            service.signal(SIGKILL)
            #expect(await service.waitForExit(timeout: .seconds(30)) != nil)
        }

        // The restarted process is another replica: it fails the dead one's job once that
        // one's lease has run out (lease + a third of it), not before.
        let restarted = try await ServiceProcess.start(directory: directory.url, environment: lease)
        defer { restarted.stop() }
        let client = restarted.client
        let notesAfterCrash = try await restarted.count("Note")
        var firstJob = try await client.get(firstLocation).json()
        let failDeadline = ContinuousClock.now + .seconds(10)
        while sawRunning, notesAfterCrash == 1, firstJob["status"] as? String != "failed", ContinuousClock.now < failDeadline {
            try await Task.sleep(for: .milliseconds(100))
            firstJob = try await client.get(firstLocation).json()
        }
        guard sawRunning, notesAfterCrash == 1 else {
            // The clone committed before the kill: the key keeps its answer, a retry replays it.
            #expect(firstJob["status"] as? String == "succeeded" || !sawRunning)
            let retry = try await client.post("/notes/\(noteID)/clone", body, headers: key)
            #expect(retry.header("Location") == firstLocation)
            #expect(try await restarted.count("Note") == notesAfterCrash)
            return
        }
        #expect(firstJob["status"] as? String == "failed")
        #expect((firstJob["error"] as? [String: Any])?["code"] as? String == "job_interrupted")

        // Two retries at once: one new job; the other replays it, or answers 409 in_progress
        // while the first still holds the key's reservation (then a retry replays it).
        async let one = client.post("/notes/\(noteID)/clone", body, headers: key)
        async let two = client.post("/notes/\(noteID)/clone", body, headers: key)
        var answers = try await [one, two]
        if let busy = answers.firstIndex(where: { $0.status == 409 }) {
            #expect(answers[busy].text.contains("\"in_progress\""))
            answers[busy] = try await client.post("/notes/\(noteID)/clone", body, headers: key)
        }
        #expect(answers.map(\.status) == [202, 202], "\(answers.map(\.text))")
        let locations = answers.compactMap { $0.header("Location") }
        #expect(locations.count == 2 && locations[0] == locations[1], "\(locations)")
        #expect(!locations.contains(firstLocation), "a retry starts a new job")
        #expect(answers.filter { $0.header("Idempotent-Replayed") == "true" }.count == 1)
        let job = try await JobsServiceTests.waitForJob(client, try #require(locations.first))
        #expect(job["status"] as? String == "succeeded", "\(job)")
        #expect(try await restarted.count("Note") == 2, "exactly one clone")
        #expect(try await restarted.count("Note", where: "name = 'copy'") == 1)
        #expect(try await restarted.count("Item") == 2 * items)

        // Later retries replay the new job; a different request with the key is still refused.
        let later = try await client.post("/notes/\(noteID)/clone", body, headers: key)
        #expect(later.header("Location") == locations[0])
        #expect(later.header("Idempotent-Replayed") == "true")
        let other = try await client.post("/notes/\(noteID)/clone", #"{"set":{"name":"other"}}"#, headers: key)
        #expect(other.status == 422)
        #expect(try await restarted.count("Note") == 2)
    }
}
