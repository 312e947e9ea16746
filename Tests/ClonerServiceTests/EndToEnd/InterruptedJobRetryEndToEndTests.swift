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
        do {
            let service = try await ServiceProcess.start(directory: directory.url)
            defer { service.stop() }
            let client = service.client
            noteID = try await LifecycleEndToEndTests.seedLargeNote(service, items: items, name: "crash")
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

        let restarted = try await ServiceProcess.start(directory: directory.url)
        defer { restarted.stop() }
        let client = restarted.client
        let notesAfterCrash = try await restarted.count("Note")
        let firstJob = try await client.get(firstLocation).json()
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

        // Two retries at once: one new job, the other answer replays it.
        async let one = client.post("/notes/\(noteID)/clone", body, headers: key)
        async let two = client.post("/notes/\(noteID)/clone", body, headers: key)
        let answers = try await [one, two]
        #expect(answers.map(\.status) == [202, 202], "\(answers.map(\.text))")
        let locations = answers.compactMap { $0.header("Location") }
        #expect(locations.count == 2 && locations[0] == locations[1], "\(locations)")
        #expect(!locations.contains(firstLocation), "a retry starts a new job")
        #expect(answers.filter { $0.header("Idempotent-Replayed") == "true" }.count == 1)
        let job = try await JobsEndToEndTests.waitForJob(client, try #require(locations.first))
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
