import ClonerStore
import Foundation
import Logging

/// One asynchronous job's persisted row through its life, as `JobRunner` hands it to the work:
/// the steps every job takes whatever it does, so a clone and an import record them alike.
///
/// Transactions, and why each is needed: the queued row (the runner's, before the 202);
/// `running`, committed at once so every replica sees it while the work's own transaction shows
/// nothing; the work with its `succeeded` row, committed together; only when the work failed, the
/// `failed` row.
struct AsynchronousJob: Sendable {
    /// The job's id, a lower-case UUID: `GET /jobs/{id}`.
    let id: String
    /// The operation as log lines name it (`JobWork.name`).
    let name: String
    /// The row's `request`.
    let requestJSON: Data
    /// This replica's id, the owner written on the row.
    let owner: String
    let store: IncrementalStore
    let jobs: JobRegistry
    let logger: Logger
    /// `DELETE /jobs/{id}` reaching this job while it is queued or runs.
    let cancellation: JobCancellation
    /// Records the failure later when the database cannot take it now.
    let leases: JobLeaseKeeper

    /// Before the work's transaction opens: the row reads `running`. Not fatal when it fails: the
    /// row still reads `queued`, and the work goes on. Throws `JobCancellation.Cancelled` for a job
    /// cancelled while it waited: it never starts.
    func recordRunning() throws {
        if cancellation.isCancelled { throw JobCancellation.Cancelled() }
        do {
            _ = try store.write { try $0.markJobRunning(id: id, owner: owner) }
        } catch {
            logger.warning("recording a \(name) job as running failed", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }

    /// Another replica failed this job while it waited (this one looked dead): it must not run.
    struct TakenOver: Error {
        let job: String
    }

    /// First in the work's transaction: holds the row (PostgreSQL: locked) while the work runs; a
    /// job another replica already failed (this one looked dead) must not run after all.
    func hold(in context: any StoreContext) throws {
        try cancellation.begin(in: context)
        if try !context.holdJob(id: id, owner: owner) { throw TakenOver(job: id) }
    }

    /// Last in the work's transaction: the `succeeded` row with the work's answer, committed with it.
    func recordSuccess(_ result: [UInt8], in context: any StoreContext) throws {
        try cancellation.beginCommit()
        try context.saveJob(JobRecord(id: id, status: .succeeded, request: requestJSON, result: Data(result), finishedAt: Date(), owner: owner))
    }

    /// Once the work's transaction has ended: the `failed` row when it did not commit (or the
    /// `cancelled` one when a cancel stopped it), then the job leaves the registry (its row
    /// answers from now on).
    func finish(failure: (any Error)?) {
        if let failure {
            if cancellation.isCancelled { recordCancelled() } else { recordFailure(failure) }
        }
        jobs.remove(id)
    }

    /// Whether the job ended cancelled rather than failed: asked once its transaction has ended.
    var wasCancelled: Bool { cancellation.isCancelled }

    /// The `cancelled` row, and the key's answer forgotten so a retry runs again.
    private func recordCancelled() {
        do {
            _ = try store.write { context in try context.cancelJob(id: id, error: nil, now: Date()) }
            logger.info("\(name) job cancelled", metadata: ["job": "\(id)"])
        } catch {
            logger.error("recording a cancelled \(name) job failed", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }

    /// The `failed` row with the problem a client reads at `GET /jobs/{id}`; an error that is not a
    /// client's problem is logged with its detail (the row says only "internal error").
    private func recordFailure(_ failure: any Error) {
        let problem = Problem.from(failure) ?? Problem.internalError()
        if Problem.from(failure) == nil {
            logger.error("\(name) job failed", metadata: ["job": "\(id)", "error": "\(failure)"])
        }
        // Lost with its database, the work was not refused: its key runs again on a retry. A
        // COMMIT lost so may have kept the work and its `succeeded` row, which stays.
        let lost: Bool
        if case StoreError.unavailable = failure { lost = true } else { lost = false }
        let recorded = Data(problem.jsonBytes())
        do {
            _ = try store.write { context in try context.failJob(id: id, error: recorded, now: Date(), releasingKey: lost) }
        } catch {
            leases.failLater(job: id, error: recorded)
            logger.error("recording a failed \(name) job failed; retried at the next lease tick", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }
}
