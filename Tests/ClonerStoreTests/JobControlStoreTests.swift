@testable import ClonerStore
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing

/// What `GET /jobs` and `DELETE /jobs/{id}` ask of the service tables, the same on both backends:
/// pages of jobs newest first, cancelled rows that release their key, cancel requests for another
/// replica, and a statement stopped from another thread.
@Suite struct JobControlStoreTests {
    static let request = Data("{}".utf8)

    @Test(arguments: StoreBackendKind.available) func pagesAreNewestFirstFilteredAndContinueExactly(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try store.write { context in
            for index in 0..<5 {
                // Two jobs share each creation time: the id breaks the tie.
                let createdAt = start.addingTimeInterval(Double(index / 2))
                let status: JobStatus = index.isMultiple(of: 2) ? .succeeded : .failed
                try context.saveJob(JobRecord(id: "job-\(index)", status: status, request: Self.request, createdAt: createdAt, finishedAt: createdAt))
            }
        }
        var seen: [String] = []
        var position: JobListPosition?
        repeat {
            let page = try store.read { try $0.jobs(status: nil, after: position, limit: 2) }
            seen += page.map(\.id)
            position = page.count == 2 ? JobListPosition(after: page[1]) : nil
        } while position != nil
        #expect(seen == ["job-4", "job-3", "job-2", "job-1", "job-0"])
        #expect(try store.read { try $0.jobs(status: .succeeded, after: nil, limit: 10) }.map(\.id) == ["job-4", "job-2", "job-0"])
        #expect(try store.read { try $0.jobs(status: .cancelled, after: nil, limit: 10) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func cancellingMarksTheRowReleasesTheKeyAndClearsRequests(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let now = Date()
        try store.write { context in
            try context.saveJob(JobRecord(id: "running", status: .running, request: Self.request, owner: "A", leaseExpiresAt: now.addingTimeInterval(10)))
            try context.saveJob(JobRecord(id: "done", status: .succeeded, request: Self.request, finishedAt: now, owner: "A"))
            try context.saveIdempotencyRecord(IdempotencyRecord(key: "k", fingerprint: "f", status: 202, location: "/jobs/running", body: Self.request))
        }
        #expect(try store.write { try $0.requestJobCancellation(id: "running", now: now) })
        #expect(try store.write { try $0.requestJobCancellation(id: "running", now: now) }, "asked twice, recorded once")
        #expect(try store.write { try $0.requestJobCancellation(id: "done", now: now) } == false)
        #expect(try store.read { try $0.requestedJobCancellations(owner: "A") } == ["running"])
        #expect(try store.read { try $0.requestedJobCancellations(owner: "B") }.isEmpty)

        #expect(try store.write { try $0.cancelJob(id: "running", error: nil, now: now) })
        #expect(try store.read { try $0.job(id: "running") }?.status == .cancelled)
        #expect(try store.read { try $0.idempotencyRecord(key: "k") } == nil, "the key runs again")
        #expect(try store.read { try $0.requestedJobCancellations(owner: "A") }.isEmpty)
        #expect(try store.write { try $0.cancelJob(id: "done", error: nil, now: now) } == false, "a finished job stays as it ended")
        #expect(try store.read { try $0.job(id: "done") }?.status == .succeeded)
    }

    @Test(arguments: StoreBackendKind.available) func anInterruptStopsTheRunningStatementAndTheStoreGoesOn(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        // Nil before the transaction hands it over and again once the transaction ends: an
        // interrupter is used only while its transaction is open.
        let interrupter = LockedValue<(any StatementInterrupter)?>(nil)
        let ended = LockedValue(false)
        let interrupting = Thread {
            // Again and again while the endless statement runs: one interrupt may land before it starts.
            while !ended.withLock({ $0 }) {
                interrupter.withLock { $0?.interrupt() }
                usleep(5_000)
            }
        }
        interrupting.start()
        let endless =
            kind == .sqlite
            ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
            : "SELECT pg_sleep(600)::text"
        #expect(throws: (any Error).self) {
            try store.write { context in
                interrupter.withLock { $0 = context.statementInterrupter() }
                defer { interrupter.withLock { $0 = nil } }
                _ = try context.rawTexts(endless)
            }
        }
        ended.withLock { $0 = true }
        #expect(try store.write { context in try context.rawTexts("SELECT 'one'") } == ["one"])
    }
}
