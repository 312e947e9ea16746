import ClonerStore
import Foundation

/// One clone running on its own private serial `DispatchQueue` (the product owner's rule: no two
/// clones share a queue, and none runs on the caller's thread or an event loop), in one write
/// transaction that the job itself opens and commits. On SQLite the private queues target one
/// serial writer queue (`CloneEngine`): each job keeps its own queue, and the store's single
/// writer takes them in turn without a thread parked per waiting job.
///
/// `@unchecked Sendable`: the mutable state (`status`, `result`, `error`, `finishedAt`) is only
/// touched under `lock`; everything else is immutable or itself thread-safe (`GraphCopyProgress`).
public final class CloneJob: @unchecked Sendable {
    /// The same type as a persisted job row's status, so the two never disagree on a spelling.
    public typealias Status = JobStatus

    public let id: String
    public let plan: ClonePlan
    public var request: CloneRequest { plan.request }
    public let progress = GraphCopyProgress()
    public let createdAt = Date()
    private let store: IncrementalStore
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var _status: Status = .queued
    private var _result: CloneResult?
    private var _error: (any Error)?
    private var _finishedAt: Date?

    init(id: String, plan: ClonePlan, store: IncrementalStore, target: DispatchQueue? = nil) {
        self.id = id
        self.plan = plan
        self.store = store
        self.queue = DispatchQueue(label: "cloner.clone.\(id)", qos: .userInitiated, target: target)
    }

    public var status: Status { lock.withLock { _status } }
    public var result: CloneResult? { lock.withLock { _result } }
    public var error: (any Error)? { lock.withLock { _error } }
    public var finishedAt: Date? { lock.withLock { _finishedAt } }

    /// On the job's queue: `starting`, then one write transaction running `before`, the copy and
    /// `after`; then `completion` on that same queue.
    func start(starting: @escaping @Sendable () -> Void = {},
               before: @escaping @Sendable (any StoreContext) throws -> Void,
               after: @escaping @Sendable (any StoreContext, CloneResult) throws -> Void,
               completion: @escaping @Sendable (CloneJob) -> Void) {
        let queuedAt = ContinuousClock.now
        queue.async { [self] in
            // Behind the store's writer queue a job waits for the clones before it, as a write
            // waits for the writer gate, and gives up after as long (503, `busy`).
            let waited = ContinuousClock.now - queuedAt
            if waited > store.writerWait {
                lock.withLock {
                    _error = StoreError.busy(waited: waited)
                    _status = .failed
                    _finishedAt = Date()
                }
                completion(self)
                return
            }
            // What others read (the job's row, through `starting`) says running before this
            // process does: a client that saw `running` here never reads `queued` elsewhere.
            starting()
            lock.withLock { _status = .running }
            do {
                let result = try store.write { context in
                    try before(context)
                    let result = try CloneEngine.copy(plan, in: context, now: Date(), progress: progress)
                    try after(context, result)
                    return result
                }
                lock.withLock {
                    _result = result
                    _status = .succeeded
                    _finishedAt = Date()
                }
            } catch {
                lock.withLock {
                    _error = error
                    _status = .failed
                    _finishedAt = Date()
                }
            }
            completion(self)
        }
    }

    /// Blocks until the job has finished (for callers that already run on a worker queue).
    public func wait() {
        queue.sync {}
    }
}
