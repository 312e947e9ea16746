import ClonerStore
import Foundation

/// What an asynchronous operation (`Prefer: respond-async`) gives the `JobRunner`: only its
/// work. The runner writes the job row, claims the `Idempotency-Key` and answers the 202; the
/// work runs where its kind runs (a clone on its own private serial queue, an import on a write
/// worker) and reports through the `AsynchronousJob` it is handed.
protocol JobWork: Sendable {
    /// The operation as log lines name it: `clone job failed`, `import job failed`.
    var name: String { get }
    /// The job row's `request`: what the job was asked to do.
    var requestJSON: Data { get }
    /// In the transaction that writes the queued row: what must hold before a job is promised
    /// (a clone's `set` targets exist). Throwing answers the request with that error and writes
    /// nothing.
    func check(in context: any StoreContext) throws
    /// Starts the work off the caller's thread and returns it, not yet finished, for the job
    /// registry. The work calls `job.recordRunning()` first (it throws for a job cancelled while
    /// it waited, which then ends without opening its transaction); then, in one write transaction,
    /// `job.hold(in:)`, its work and `job.recordSuccess(_:in:)`; then, once that transaction has
    /// committed or rolled back, `job.finish(failure:)`.
    func start(_ job: AsynchronousJob) -> any RunningJob
}

extension JobWork {
    func check(in context: any StoreContext) throws {}
}
