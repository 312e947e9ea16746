import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// `DELETE /jobs/{id}` answered by a replica other than the one running the job: the request is
/// recorded beside the job's locked row, and the owner stops the job at its next look.
@Suite(
    "End to end: cancelling a job another replica runs", .serialized,
    .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
struct ReplicaJobCancelEndToEndTests {
    typealias F = EndToEndFixture

    @Test("B cancels A's running clone: 202, A stops it within its lease keeper's interval, nothing is written, the key runs again")
    func cancelOnAnotherReplica() async throws {
        // A lease long enough that a loaded machine never lets A's lapse while its clone waits
        // (the job would then read failed, not cancelled); the cancel is read within a third of it.
        let (a, b, directories) = try await ReplicasEndToEndTests.startPair(lease: "6")
        defer { a.stop(); b.stop(); for directory in directories { directory.remove() } }
        let items = 200_000
        let noteID = try await a.seedLargeNote(items: items, name: "long")
        // The copy is held mid-way, however fast it runs on the machine of the day: it may read
        // and lock its source but not insert into ItemData until the cancel has reached it.
        let holder = try PostgreSQLConnection(uri: a.databaseLocation)
        try holder.execute("BEGIN; LOCK TABLE \"ItemData\" IN SHARE ROW EXCLUSIVE MODE")
        defer { try? holder.execute("ROLLBACK") }
        let headers = [("Idempotency-Key", "remote-\(UUID().uuidString)"), ("Prefer", "respond-async")]
        let accepted = try await a.client.post("/notes/\(noteID)/clone", "{}", headers: headers)
        #expect(accepted.status == 202, "\(accepted.text)")
        let location = try #require(accepted.header("Location"))
        try await JobControlServiceTests.waitUntilRunning(a.client, location)

        let stop = try await b.client.delete(location)
        #expect(stop.status == 202, "\(stop.text)")
        let job = try await JobControlServiceTests.waitForStatus(b.client, location, "cancelled", timeout: .seconds(60))
        try holder.execute("ROLLBACK")
        #expect(job["status"] as? String == "cancelled")
        #expect(try await b.client.delete(location).status == 200)
        #expect(try await b.count("Note") == 1, "the clone rolled back")
        #expect(try await b.count("Item") == items)
        let retry = try await b.client.post("/notes/\(noteID)/clone", "{}", headers: headers)
        #expect(retry.status == 202 && retry.header("Location") != location, "\(retry.text)")
    }
}
