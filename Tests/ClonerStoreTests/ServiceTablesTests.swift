import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@Suite struct ServiceTablesTests {
    @Test(arguments: StoreBackendKind.available) func idempotencyRecordsRoundTripAndExpire(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let old = IdempotencyRecord(
            key: "k1", fingerprint: "f1", status: 201, location: "/notes/2", body: Data("{}".utf8),
            createdAt: Date(timeIntervalSinceNow: -100_000))
        let fresh = IdempotencyRecord(key: "k2", fingerprint: "f2", status: 200, location: nil, body: Data("[1]".utf8))
        try store.write { context in
            try context.saveIdempotencyRecord(old)
            try context.saveIdempotencyRecord(fresh)
        }
        let read = try store.read { try $0.idempotencyRecord(key: "k1") }
        #expect(read?.status == 201 && read?.location == "/notes/2" && read?.body == Data("{}".utf8) && read?.fingerprint == "f1")
        let purged = try store.write { try $0.purgeIdempotencyRecords(olderThan: Date(timeIntervalSinceNow: -86_400)) }
        #expect(purged == 1)
        #expect(try store.read { try $0.idempotencyRecord(key: "k1") } == nil)
        #expect(try store.read { try $0.idempotencyRecord(key: "k2") }?.location == nil)
    }

    /// A key or job id reaches the store from a client; one with a NUL (which PostgreSQL text
    /// cannot hold) is an error of that read, never a stop of the process.
    @Test(arguments: StoreBackendKind.available) func keysWithNULAreErrorsOrAbsentNotCrashes(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        for key in ["\u{0}", "a\u{0}b"] {
            let job = Result { try store.read { try $0.job(id: key) } }
            let record = Result { try store.read { try $0.idempotencyRecord(key: key) } }
            switch kind {
            case .sqlite:
                #expect((try? job.get()) == .some(nil))
                #expect((try? record.get()) == .some(nil))
            case .postgreSQL:
                #expect(throws: (any Error).self) { try job.get() }
                #expect(throws: (any Error).self) { try record.get() }
            }
        }
        #expect(try store.read { try $0.job(id: "absent") } == nil)
    }

    @Test(arguments: StoreBackendKind.available) func interruptedJobsAreReportedFailedAfterReopening(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        do {
            let store = try StoreFixtures.openStore(place)
            try store.write { context in
                try context.saveJob(JobRecord(id: "done", status: .succeeded, request: Data("{}".utf8), result: Data("{\"ok\":1}".utf8), finishedAt: Date()))
                try context.saveJob(JobRecord(id: "running", status: .running, request: Data("{}".utf8)))
                try context.saveJob(JobRecord(id: "queued", status: .queued, request: Data("{}".utf8)))
            }
        }
        let store = try StoreFixtures.openStore(place)
        let failed = try store.write { try $0.failExpiredLeases(error: Data("\"interrupted\"".utf8), now: Date(), excludingOwner: "live").jobs }
        #expect(failed == 2)
        let (done, running) = try store.read { (try $0.job(id: "done"), try $0.job(id: "running")) }
        #expect(done?.status == .succeeded && done?.result == Data("{\"ok\":1}".utf8))
        #expect(running?.status == .failed && running?.error == Data("\"interrupted\"".utf8) && running?.finishedAt != nil)
        #expect(try store.read { try $0.job(id: "missing") } == nil)
    }
}
