import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A job's progress moves as the copy goes, entity by entity — on PostgreSQL too, where a clone's
/// writes go out in one pipeline: each statement's result is counted as it arrives.
@Suite("Service: a job's progress as the copy goes")
struct JobProgressServiceTests {
    @Test(
        "held at its ItemData rows, a clone reads as part written: its notes and items, not yet its item data",
        .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func progressBeforeTheLastEntity() async throws {
        try await TestService.withService(backend: .postgreSQL) { service in
            let client = service.client
            let items = 2_000
            let noteID = try await service.seedLargeNote(items: items, name: "progress")
            let location = service.databaseLocation
            let progress = try await Blocking.run { () throws -> (planned: Int, written: Int, job: String) in
                // The copy may read and lock its source but not write ItemData until this lets go.
                let holder = try PostgreSQLConnection(uri: location)
                try holder.execute("BEGIN; LOCK TABLE \"ItemData\" IN SHARE ROW EXCLUSIVE MODE")
                defer { try? holder.execute("ROLLBACK") }
                let accepted = try client.requestNow("POST", "/notes/\(noteID)/clone", headers: [("Prefer", "respond-async")], body: "{}")
                let job = try #require(accepted.header("Location"))
                let deadline = ContinuousClock.now + .seconds(120)
                while ContinuousClock.now < deadline {
                    let read = try client.requestNow("GET", job).json()
                    let progress = read["progress"] as? [String: Any]
                    let written = progress?["written"] as? Int ?? 0
                    // The note first, then its items; the item data waits for the lock.
                    if written > items { return (progress?["planned"] as? Int ?? 0, written, job) }
                    usleep(20_000)
                }
                throw ClientError("the job never showed its note and items written while held at ItemData")
            }
            #expect(progress.planned == 2 * items + 1)
            #expect(progress.written == items + 1, "the note and its items, written before ItemData: \(progress)")
            let done = try await JobControlServiceTests.waitForStatus(client, progress.job, "succeeded")
            let final = try #require(done["progress"] as? [String: Any])
            #expect(final["written"] as? Int == 2 * items + 1)
        }
    }
}
