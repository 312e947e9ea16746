import ClonerModel
import ClonerStore
import Foundation

/// Clones objects of one store. Each clone is planned from the model (no object read), then run
/// in one write transaction on the store.
public final class CloneEngine: Sendable {
    public let store: IncrementalStore

    public init(store: IncrementalStore) {
        self.store = store
    }

    /// Plans and runs one clone on the calling thread; nothing is written if it throws.
    public func clone(_ request: CloneRequest, progress: CloneProgress = CloneProgress()) throws -> CloneResult {
        let plan = try ClonePlan(request: request, schema: store.schema)
        return try store.write { context in
            try CloneExecutor(plan: plan).run(in: context, progress: progress)
        }
    }

    /// Runs one clone inside a write transaction the caller already holds, so the caller can
    /// record something with it atomically (an idempotency answer, a job's result): both commit
    /// together or neither does.
    public func clone(_ request: CloneRequest, in context: StoreContext, progress: CloneProgress = CloneProgress()) throws -> CloneResult {
        let plan = try ClonePlan(request: request, schema: context.schema)
        return try CloneExecutor(plan: plan).run(in: context, progress: progress)
    }

    /// Checks a request against the model without touching the store, so a bad `exclude` or
    /// `set` is refused before a job is queued.
    public func validate(_ request: CloneRequest) throws {
        _ = try ClonePlan(request: request, schema: store.schema)
    }

    /// Starts a clone on its own private serial queue and returns at once; `completion` runs on
    /// that queue when the clone has committed or rolled back.
    @discardableResult
    public func start(_ request: CloneRequest, jobID: String = UUID().uuidString.lowercased(),
                      completion: @escaping @Sendable (CloneJob) -> Void = { _ in }) -> CloneJob {
        start(request, jobID: jobID, work: { [self] progress in try clone(request, progress: progress) }, completion: completion)
    }

    /// Starts a job whose work the caller supplies — typically `store.write` around
    /// `clone(_:in:progress:)` plus something recorded in the same transaction — still on the
    /// job's own private serial queue.
    @discardableResult
    public func start(_ request: CloneRequest, jobID: String,
                      work: @escaping @Sendable (CloneProgress) throws -> CloneResult,
                      completion: @escaping @Sendable (CloneJob) -> Void) -> CloneJob {
        let job = CloneJob(id: jobID, request: request)
        job.start(work, completion: completion)
        return job
    }
}
