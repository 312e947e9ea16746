import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `Prefer: respond-async` clones and `GET /jobs/{id}` (docs/architecture.md#routes).
@Suite("Service: asynchronous clone jobs")
struct JobsServiceTests {
    typealias F = EndToEndFixture

    /// Polls a job (bounded) until it is finished; the last job document.
    static func waitForJob(_ client: ServiceClient, _ location: String, timeout: Duration = .seconds(120)) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let response = try await client.get(location)
            guard response.status == 200 else { throw ClientError("GET \(location) answered \(response.status): \(response.text)") }
            let job = try response.json()
            let status = job["status"] as? String ?? ""
            if status == "succeeded" || status == "failed" { return job }
            guard ["queued", "running"].contains(status) else { throw ClientError("unexpected job status \(status)") }
            guard ContinuousClock.now < deadline else { throw ClientError("job \(location) still \(status) after \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("202 + Location /jobs/{id}; the job succeeds with the same answer a synchronous clone gives", arguments: StoreBackendKind.available)
    func asyncClone(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let note = try await client.create("notes", F.richNote(name: "later", tag: "t"))
                let noteID = try #require(F.int(note["_id"]))
                let dry = try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#).json()

                let accepted = try await client.post("/notes/\(noteID)/clone", #"{"returnIds":true}"#, headers: [("Prefer", "respond-async")])
                #expect(accepted.status == 202, "\(accepted.text)")
                let location = try #require(accepted.header("Location"))
                #expect(location.hasPrefix("/jobs/"))
                let queued = try accepted.json()
                #expect(["queued", "running"].contains(queued["status"] as? String ?? ""))
                #expect(location == "/jobs/\(queued["id"] as? String ?? "")")

                let job = try await Self.waitForJob(client, location)
                #expect(job["status"] as? String == "succeeded")
                #expect(job["error"] == nil)
                let result = try #require(job["result"] as? [String: Any])
                #expect(F.counts(result["created"]) == F.counts(dry["created"]))
                #expect(F.counts(result["linked"]) == ["Tag": 1])
                let progress = try #require(job["progress"] as? [String: Any])
                #expect(F.int(progress["planned"]) == 6)
                #expect(F.int(progress["written"]) == 6)
                let cloneID = try #require(F.int((result["clone"] as? [String: Any])?["id"]))
                #expect(F.int((result["ids"] as? [String: [String: Any]])?["Note"]?["\(noteID)"]) == cloneID)
                let copy = try await client.get("/notes/\(cloneID)")
                #expect(copy.status == 200)
                #expect(F.ints(try copy.json()["items"])?.count == 2)
                #expect(try await service.count("Note") == 2)

                #expect(try await client.get("/jobs/no-such-job").status == 404)
                // A dry run has nothing to wait for: answered at once even when async is preferred.
                #expect(try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#, headers: [("Prefer", "respond-async")]).status == 200)
                // Validation happens before the 202.
                #expect(try await client.post("/notes/\(noteID)/clone", #"{"exclude":["nope"]}"#, headers: [("Prefer", "respond-async")]).status == 422)
                let jobsBefore = try await service.count("_cloner_jobs")
                let unknown = try await client.post("/notes/424242/clone", nil, headers: [("Prefer", "respond-async")])
                #expect(unknown.status == 404, "an unknown source is a 404 at once, not a job bound to fail: \(unknown.status) \(unknown.text)")
                let dangling = try await client.post("/notes/\(noteID)/clone", #"{"set":{"template":424242}}"#, headers: [("Prefer", "respond-async")])
                #expect(dangling.status == 422)
                #expect(F.errorFields(try dangling.json()) == ["set.template"])
                #expect(try await service.count("_cloner_jobs") == jobsBefore, "no job recorded for a rejected request")
            }
        }
    }

    @Test("a failing asynchronous clone (unique conflict) ends failed with a problem and writes nothing", arguments: StoreBackendKind.available)
    func failingAsyncClone(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let taken = F.uuid()
                _ = try await client.create("notes", F.note(#""name":"holder""#, id: taken))
                let note = try await client.create("notes", F.richNote(name: "victim", tag: "t"))
                let noteID = try #require(F.int(note["_id"]))
                let rows = try await service.counts(["Note", "Item", "ItemData", "Memo", "NoteDescription"])

                let accepted = try await client.post("/notes/\(noteID)/clone", #"{"set":{"id":"\#(taken)"}}"#, headers: [("Prefer", "respond-async")])
                #expect(accepted.status == 202)
                let job = try await Self.waitForJob(client, try #require(accepted.header("Location")))
                #expect(job["status"] as? String == "failed")
                #expect(job["result"] == nil)
                let problem = try #require(job["error"] as? [String: Any])
                #expect(problem["code"] as? String == "conflict")
                #expect(F.int(problem["status"]) == 409)
                #expect((problem["detail"] as? String)?.contains("id") == true)
                #expect(try await service.counts(["Note", "Item", "ItemData", "Memo", "NoteDescription"]) == rows)
                #expect(try await client.metric("cloner_jobs_in_flight", settlingAt: 0) == 0)
            }
        }
    }

    @Test("an asynchronous clone with an Idempotency-Key is accepted once; the retry points at the same job", arguments: StoreBackendKind.available)
    func asyncIdempotency(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let note = try await client.create("notes", F.richNote(name: "async-once", tag: "t"))
                let noteID = try #require(F.int(note["_id"]))
                let headers = [("Prefer", "respond-async"), ("Idempotency-Key", "job-\(UUID().uuidString)")]
                let first = try await client.post("/notes/\(noteID)/clone", "{}", headers: headers)
                #expect(first.status == 202)
                let job = try await Self.waitForJob(client, try #require(first.header("Location")))
                #expect(job["status"] as? String == "succeeded")
                let second = try await client.post("/notes/\(noteID)/clone", "{}", headers: headers)
                #expect(second.status == 202)
                #expect(second.header("Location") == first.header("Location"))
                #expect(try await service.count("Note") == 2)
            }
        }
    }
}
