@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Idempotency reservations and job leases on the service tables (docs/architecture.md#replicas), the same on
/// both backends, and the additive migration of service tables an older version made.
@Suite struct ReplicaLeaseTests {
    static let request = Data("{}".utf8)

    @Test(arguments: StoreBackendKind.available) func reservationIsInsertIfAbsentTakenOverOnlyAfterItsLease(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let now = Date()
        let lease = now.addingTimeInterval(10)
        #expect(try store.write { try $0.reserveIdempotencyKey("k", fingerprint: "f", owner: "A", leaseExpiresAt: lease, now: now) } == .reserved)
        // A second replica, the lease alive: in progress (with the first request's fingerprint).
        #expect(
            try store.write { try $0.reserveIdempotencyKey("k", fingerprint: "g", owner: "B", leaseExpiresAt: lease, now: now) }
                == .inProgress(fingerprint: "f"))
        #expect(try store.read { try $0.peekIdempotencyKey("k", now: now) } == .inProgress(fingerprint: "f"))
        #expect(try store.read { try $0.idempotencyRecord(key: "k") } == nil, "a reservation is no answer")
        // Its lease over (A died): B takes it over, and A can no longer hold it.
        let later = lease.addingTimeInterval(1)
        #expect(try store.read { try $0.peekIdempotencyKey("k", now: later) } == nil)
        #expect(
            try store.write { try $0.reserveIdempotencyKey("k", fingerprint: "f", owner: "B", leaseExpiresAt: later.addingTimeInterval(10), now: later) }
                == .reserved)
        #expect(try store.write { try $0.holdIdempotencyReservation("k", owner: "A") } == false)
        #expect(try store.write { try $0.holdIdempotencyReservation("k", owner: "B") } == true)
        // The final answer ends the reservation: from then on it is replayed.
        let answer = IdempotencyRecord(key: "k", fingerprint: "f", status: 201, location: "/notes/9", body: Data("{\"a\":1}".utf8), createdAt: later)
        try store.write { try $0.saveIdempotencyRecord(answer) }
        guard
            case .finished(let record) = try store.write({ try $0.reserveIdempotencyKey("k", fingerprint: "f", owner: "C", leaseExpiresAt: lease, now: later) })
        else {
            Issue.record("a finished key must replay"); return
        }
        #expect(record.status == 201 && record.location == "/notes/9" && record.body == answer.body)
        try store.write { try $0.releaseIdempotencyKey("k", owner: "B") }
        #expect(try store.read { try $0.idempotencyRecord(key: "k") }?.status == 201, "a release never drops a finished answer")
        // A released reservation is free again at once.
        #expect(try store.write { try $0.reserveIdempotencyKey("r", fingerprint: "f", owner: "A", leaseExpiresAt: lease, now: now) } == .reserved)
        try store.write { try $0.releaseIdempotencyKey("r", owner: "A") }
        #expect(try store.write { try $0.reserveIdempotencyKey("r", fingerprint: "f", owner: "B", leaseExpiresAt: lease, now: now) } == .reserved)
    }

    @Test(arguments: StoreBackendKind.available) func expiredLeasesFailJobsAndReleaseKeysButNotLiveOnes(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let now = Date()
        try store.write { context in
            try context.saveJob(JobRecord(id: "alive", status: .running, request: Self.request, owner: "A", leaseExpiresAt: now.addingTimeInterval(10)))
            try context.saveJob(JobRecord(id: "dead", status: .queued, request: Self.request, owner: "B", leaseExpiresAt: now.addingTimeInterval(-1)))
            try context.saveJob(JobRecord(id: "old", status: .running, request: Self.request))
            try context.saveJob(JobRecord(id: "mine", status: .running, request: Self.request, owner: "C", leaseExpiresAt: now.addingTimeInterval(-1)))
            try context.saveIdempotencyRecord(IdempotencyRecord(key: "to-dead", fingerprint: "f", status: 202, location: "/jobs/dead", body: Self.request))
            try context.saveIdempotencyRecord(IdempotencyRecord(key: "to-alive", fingerprint: "f", status: 202, location: "/jobs/alive", body: Self.request))
            _ = try context.reserveIdempotencyKey(
                "stale", fingerprint: "f", owner: "B", leaseExpiresAt: now.addingTimeInterval(-1), now: now.addingTimeInterval(-2))
            _ = try context.reserveIdempotencyKey("held", fingerprint: "f", owner: "A", leaseExpiresAt: now.addingTimeInterval(10), now: now)
        }
        let error = Data("{\"code\":\"job_interrupted\"}".utf8)
        let swept = try store.write { try $0.failExpiredLeases(error: error, now: now, excludingOwner: "C") }
        #expect(swept.jobs == 2 && swept.reservations == 1, "\(swept)")
        let jobs = try store.read { context in try ["alive", "dead", "old", "mine"].map { try context.job(id: $0) } }
        #expect(jobs.map { $0?.status } == [.running, .failed, .failed, .running])
        #expect(jobs[1]?.error == error && jobs[1]?.finishedAt != nil)
        #expect(try store.read { try $0.idempotencyRecord(key: "to-dead") } == nil, "a retry of the dead job's key clones")
        #expect(try store.read { try $0.idempotencyRecord(key: "to-alive") } != nil)
        #expect(try store.read { try $0.peekIdempotencyKey("stale", now: now) } == nil)
        #expect(try store.read { try $0.peekIdempotencyKey("held", now: now) } == .inProgress(fingerprint: "f"))

        // A renews all it holds in one go; later scans leave it alone, B's expiry does not.
        let renewed = try store.write { try $0.renewLeases(owner: "A", until: now.addingTimeInterval(100)) }
        #expect(renewed == 2, "one job and one reservation")
        #expect(try store.read { try $0.job(id: "alive") }?.leaseExpiresAt.map { abs($0.timeIntervalSince(now) - 100) < 1 } == true)
        let again = try store.write { try $0.failExpiredLeases(error: error, now: now.addingTimeInterval(50), excludingOwner: "X") }
        #expect(again.jobs == 1 && again.reservations == 0, "only C's job, its lease long over: \(again)")
        #expect(try store.read { try $0.job(id: "alive") }?.status == .running)
        #expect(try store.write { try $0.holdJob(id: "alive", owner: "A") } == true)
        #expect(try store.write { try $0.holdJob(id: "mine", owner: "C") } == false, "a failed job is no longer held")
    }

    /// A queued job is marked running by its owner only, once, and never after it has ended.
    @Test(arguments: StoreBackendKind.available) func onlyTheOwnerMarksItsQueuedJobRunning(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let lease = Date().addingTimeInterval(30)
        try store.write { context in
            try context.saveJob(JobRecord(id: "q", status: .queued, request: Self.request, owner: "A", leaseExpiresAt: lease))
            try context.saveJob(JobRecord(id: "done", status: .succeeded, request: Self.request, owner: "A", leaseExpiresAt: lease))
        }
        #expect(try store.write { try $0.markJobRunning(id: "q", owner: "B") } == false, "not B's job")
        #expect(try store.read { try $0.job(id: "q") }?.status == .queued)
        #expect(try store.write { try $0.markJobRunning(id: "q", owner: "A") } == true)
        #expect(try store.read { try $0.job(id: "q") }?.status == .running)
        #expect(try store.write { try $0.markJobRunning(id: "q", owner: "A") } == false, "already running")
        #expect(try store.write { try $0.markJobRunning(id: "done", owner: "A") } == false, "a finished job stays finished")
        #expect(try store.read { try $0.job(id: "done") }?.status == .succeeded)
        #expect(try store.write { try $0.holdJob(id: "q", owner: "A") } == true, "a running job is still held by its owner")
    }

    /// The service tables as the version before leases made them, with a row in each.
    static let oldServiceTables = [
        "DROP TABLE _cloner_idempotency",
        "DROP TABLE _cloner_jobs",
        "CREATE TABLE _cloner_idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, location TEXT, body BLOB NOT NULL, created_at INTEGER NOT NULL)",
        "CREATE TABLE _cloner_jobs (id TEXT PRIMARY KEY, status TEXT NOT NULL, request BLOB NOT NULL, result BLOB, error BLOB, created_at INTEGER NOT NULL, finished_at INTEGER)",
    ]

    @Test(arguments: StoreBackendKind.available) func aDatabaseFromBeforeLeasesOpensAndGainsTheColumns(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        do {
            let store = try place.open()
            try store.write { context in
                for statement in Self.oldServiceTables {
                    _ = try context.rawTexts(
                        kind == .sqlite
                            ? statement
                            : statement
                                .replacingOccurrences(of: "INTEGER", with: kind == .sqlite ? "INTEGER" : "int8").replacingOccurrences(of: "BLOB", with: "bytea")
                                .replacingOccurrences(of: "created_at int8", with: "created_at timestamptz").replacingOccurrences(
                                    of: "finished_at int8", with: "finished_at timestamptz"))
                }
                let created = kind == .sqlite ? "1767323045678" : "now()"
                _ = try context.rawTexts(
                    "INSERT INTO _cloner_idempotency VALUES ('old-key', 'f', 201, '/notes/1', \(kind == .sqlite ? "x'7b7d'" : "'\\x7b7d'::bytea"), \(created))")
                _ = try context.rawTexts(
                    "INSERT INTO _cloner_jobs (id, status, request, created_at) VALUES ('old-job', 'running', \(kind == .sqlite ? "x'7b7d'" : "'\\x7b7d'::bytea"), \(created))"
                )
            }
            let columns = try store.read {
                try $0.rawTexts(
                    kind == .sqlite
                        ? "SELECT name FROM pragma_table_info('_cloner_jobs')"
                        : "SELECT column_name::text FROM information_schema.columns WHERE table_name = '_cloner_jobs'")
            }
            #expect(!columns.contains("lease_expires_at"), "the old shape, before reopening")
        }
        let store = try place.open()
        for table in ["_cloner_jobs", "_cloner_idempotency"] {
            let columns = try store.read {
                try $0.rawTexts(
                    kind == .sqlite
                        ? "SELECT name FROM pragma_table_info('\(table)')"
                        : "SELECT column_name::text FROM information_schema.columns WHERE table_name = '\(table)'")
            }
            #expect(columns.contains("owner") && columns.contains("lease_expires_at"), "\(table): \(columns)")
        }
        // The old answer still replays; the old running job (no lease) is failed by the scan.
        #expect(try store.read { try $0.idempotencyRecord(key: "old-key") }?.location == "/notes/1")
        let swept = try store.write { try $0.failExpiredLeases(error: Data("{}".utf8), now: Date(), excludingOwner: "new") }
        #expect(swept.jobs == 1)
        #expect(try store.read { try $0.job(id: "old-job") }?.status == .failed)
        #expect(try store.write { try $0.reserveIdempotencyKey("fresh", fingerprint: "f", owner: "new", leaseExpiresAt: Date(), now: Date()) } == .reserved)
    }
}
