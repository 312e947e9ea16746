import ClonerTestSupport
import Foundation
import Testing

/// kill -9 of the real binary on PostgreSQL while a large clone runs (DESIGN.md §6): the clone is
/// one transaction, so after a restart on the same database it is whole or absent, and its source
/// is as it was.
@Suite("End to end: PostgreSQL kill -9", .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
struct PostgreSQLCrashEndToEndTests {
    typealias F = EndToEndFixture

    /// A note of `items` items, each with its ItemData, written set-wise with psql.
    static func seedLargeNote(_ service: ServiceProcess, items: Int, name: String) async throws -> Int {
        let output = try await service.sql("""
            BEGIN;
            INSERT INTO "Note" (id, name, "createDate") VALUES ('\(F.uuid())', '\(name)', to_timestamp(1767323045.678));
            INSERT INTO "Item" (name, note, "_pos_note") SELECT 'item ' || i, (SELECT "_id" FROM "Note" WHERE name = '\(name)'), i \
              FROM generate_series(0, \(items - 1)) i;
            INSERT INTO "ItemData" ("createDate", value, item) SELECT to_timestamp(1767323045.678), "_id" * 0.5, "_id" FROM "Item" \
              WHERE note = (SELECT "_id" FROM "Note" WHERE name = '\(name)');
            COMMIT;
            SELECT "_id" FROM "Note" WHERE name = '\(name)';
            """)
        guard let id = Int(output) else { throw ClientError("seeding \(name): \(output)") }
        return id
    }

    /// What must not change: the source's row, its items and their data.
    static func sourceFingerprint(_ service: ServiceProcess, note: Int) async throws -> String {
        try await service.sql("""
            SELECT n."_version", n.id, n.name, (SELECT count(*) FROM "Item" i WHERE i.note = n."_id"), \
            (SELECT count(*) FROM "ItemData" d JOIN "Item" i ON i."_id" = d.item WHERE i.note = n."_id"), \
            (SELECT sum(i."_version") FROM "Item" i WHERE i.note = n."_id") FROM "Note" n WHERE n."_id" = \(note);
            """)
    }

    @Test("kill -9 in the middle of a large clone: after restart on the same database the clone is whole or absent, the source unchanged")
    func crashDuringClone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = 40_000
        var jobLocation = ""
        var sawCopying = false
        let database: String
        let noteID: Int
        let fingerprint: String
        // A short lease: the restarted process (another replica) fails the dead one's job once it runs out.
        let lease = ["CLONER_JOB_LEASE_SECONDS": "1"]
        do {
            let service = try await ServiceProcess.start(directory: directory.url, backend: .postgreSQL, environment: lease)
            database = service.databaseLocation
            let client = service.client
            noteID = try await Self.seedLargeNote(service, items: items, name: "crash")
            fingerprint = try await Self.sourceFingerprint(service, note: noteID)
            let accepted = try await client.post("/notes/\(noteID)/clone", nil, headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202)
            jobLocation = try #require(accepted.header("Location"))
            // Mid-clone: the server is running one of the copier's statements on its scratch tables.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let active = try await service.sql("""
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() \
                    AND state = 'active' AND query LIKE '%\\_clone\\_%';
                    """)
                if active != "0" { sawCopying = true; break }
                let status = try await client.get(jobLocation).json()["status"] as? String
                if status != "queued" && status != "running" { break }
            }
            #expect(sawCopying, "the clone was never seen running a copy statement")
            service.signal(SIGKILL)
            #expect(await service.waitForExit(timeout: .seconds(30)) != nil)
        }

        let restarted = try await ServiceProcess.start(directory: directory.url, backend: .postgreSQL, environment: lease,
                                                       sharedDatabase: database)
        let client = restarted.client
        #expect(try await client.get("/readyz").status == 200)
        // The killed server's session ends once its statement does; until then its rows are
        // uncommitted, invisible here either way.
        let notes = try await restarted.count("Note")
        #expect(notes == 1 || notes == 2, "whole or absent: \(notes) notes")
        let perNote = try await restarted.sql("SELECT count(*) FROM \"Item\" GROUP BY note ORDER BY note;")
        #expect(perNote.split(separator: "\n").map(String.init) == Array(repeating: "\(items)", count: notes))
        #expect(try await restarted.count("Item") == notes * items)
        #expect(try await restarted.count("ItemData") == notes * items)
        #expect(try await restarted.count("ItemData", where: "item IS NULL") == 0)
        #expect(try await Self.sourceFingerprint(restarted, note: noteID) == fingerprint, "the source is unchanged")

        var job = try await client.get(jobLocation).json()
        let leaseDeadline = ContinuousClock.now + .seconds(10)
        while notes == 1, job["status"] as? String != "failed", ContinuousClock.now < leaseDeadline {
            try await Task.sleep(for: .milliseconds(100))
            job = try await client.get(jobLocation).json()
        }
        if notes == 1 {
            #expect(job["status"] as? String == "failed", "an interrupted job reads as failed: \(job)")
            #expect((job["error"] as? [String: Any])?["code"] as? String == "job_interrupted")
        } else {
            #expect(job["status"] as? String == "succeeded", "a committed clone has its succeeded row in the same transaction")
        }
        #expect(try await client.post("/notes", F.note(#""name":"after the crash""#)).status == 201, "writable after restart")
        await restarted.stopAndWait()
    }
}
