import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `POST /{collection}/import` with `Prefer: respond-async` is a job like a clone's: `GET /jobs/{id}`
/// answers its progress while it runs, and stopping the service waits for it.
@Suite("Service: asynchronous import jobs")
struct ImportJobsServiceTests {
    typealias F = EndToEndFixture

    @Test(
        "an asynchronous import shows its planned objects while it runs and the drain lets it commit",
        arguments: StoreBackendKind.available)
    func importJobIsDrained(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let service = try await TestService.start(directory: directory.url, backend: backend)
        do {
            // Large enough that the import is still running when the job is first read and when
            // the service is told to stop: a note, 3000 items, an ItemData each.
            let noteID = try await service.seedLargeNote(items: 3000, name: "big")
            let document = try await service.client.get("/notes/\(noteID)/export").text
            let accepted = try await service.client.importGraph("notes", document, headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202, "\(accepted.text)")
            let jobID = try #require(try accepted.json()["id"] as? String)

            // Whether still running (answered from the job registry) or already done (from its
            // row), the job knows what the document creates.
            let job = try await service.client.get("/jobs/\(jobID)").json()
            let progress = try #require(job["progress"] as? [String: Any])
            #expect(F.int(progress["planned"]) == 6001, "\(job)")
            #expect(["queued", "running", "succeeded"].contains(job["status"] as? String ?? ""), "\(job)")

            await service.stop()
            let status = try await service.sql("SELECT status FROM _cloner_jobs WHERE id = '\(jobID)'")
            #expect(status == "succeeded", "the drain did not wait for the import")
            #expect(try await service.count("Note") == 2)
            #expect(try await service.count("Item") == 6000)
        } catch {
            await service.stop()
            throw error
        }
    }
}
