import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// An idempotency answer pointing at a job the process died running is forgotten when the job is
/// marked failed, so the key can clone again; answers of finished jobs and other requests stay.
@Suite struct InterruptedJobAnswerTests {
    @Test(arguments: StoreBackendKind.available) func theAnswerOfAnInterruptedJobIsForgottenAndNoOtherIs(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        try store.write { context in
            try context.saveJob(JobRecord(id: "job-a", status: .running, request: Data("{}".utf8)))
            try context.saveJob(JobRecord(id: "job-b", status: .queued, request: Data("{}".utf8)))
            try context.saveJob(JobRecord(id: "done", status: .succeeded, request: Data("{}".utf8), result: Data("{}".utf8), finishedAt: Date()))
            for (key, location) in [
                ("running", "/jobs/job-a"), ("queued", "/jobs/job-b"), ("finished", "/jobs/done"),
                ("clone", "/notes/7"), ("suffix", "/jobs/xjob-a"), ("dry", nil),
            ] as [(String, String?)] {
                try context.saveIdempotencyRecord(
                    IdempotencyRecord(
                        key: key, fingerprint: "f", status: location == nil ? 200 : 202,
                        location: location, body: Data("{}".utf8)))
            }
        }
        let failed = try store.write { try $0.failExpiredLeases(error: Data("{\"code\":\"job_interrupted\"}".utf8), now: Date(), excludingOwner: "live").jobs }
        #expect(failed == 2)
        for key in ["running", "queued"] { #expect(try store.read { try $0.idempotencyRecord(key: key) } == nil, "\(key)") }
        for key in ["finished", "clone", "suffix", "dry"] { #expect(try store.read { try $0.idempotencyRecord(key: key) } != nil, "\(key)") }
        #expect(try store.read { try $0.job(id: "job-a")?.status } == .failed, "the job still reads failed")
    }
}
