import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import Foundation
import Testing

/// On SQLite the clone jobs' queues take turns on one writer queue; what a job
/// waiting there may expect stays what a write waiting for the writer gets.
@Suite struct CloneWriterQueueTests {
    @Test func manyJobsOnTheWriterQueueEachCommitTheirOwnClone() async throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 2)
        let jobs = (0..<6).map { _ in fixture.engine.start(try! fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note))) }
        for job in jobs { job.wait() }
        #expect(jobs.allSatisfy { $0.status == .succeeded })
        #expect(Set(jobs.compactMap { $0.result?.clone.id }).count == 6)
        #expect(try fixture.ids("Note").count == 7)
    }

    @Test func aJobQueuedLongerThanTheWriterWaitFailsBusyAndWritesNothing() async throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 2)
        // A second store on the same file whose writes give up after 300 ms; its engine's jobs
        // share its writer queue.
        let store = try IncrementalStore(
            path: fixture.directory.path("clone.sqlite"), model: try CloneFixture.sampleModel(),
            writerWait: .milliseconds(300))
        let engine = CloneEngine(store: store)
        let plan = try engine.plan(CloneRequest(entity: "Note", id: sample.note))
        let long = engine.start(plan, inTransactionBefore: { _ in Thread.sleep(forTimeInterval: 1) })
        let queued = engine.start(plan)
        queued.wait()
        long.wait()
        #expect(long.status == .succeeded)
        #expect(queued.status == .failed)
        guard case StoreError.busy? = queued.error else {
            Issue.record("queued job failed with \(String(describing: queued.error)), not busy")
            return
        }
        #expect(try fixture.ids("Note").count == 2, "the long clone only")
    }
}
