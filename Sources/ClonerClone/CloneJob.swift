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
    /// Entered when the job is made, left once its completion has run: `wait()` holds also while
    /// the job still waits for its turn in the engine's run queue.
    private let done = DispatchGroup()
    private var _status: Status = .queued
    private var _result: CloneResult?
    private var _error: (any Error)?
    private var _finishedAt: Date?
    private var _runningSince: ContinuousClock.Instant?
    private var _ranFor: Duration = .zero

    init(id: String, plan: ClonePlan, store: IncrementalStore, target: DispatchQueue? = nil) {
        self.id = id
        self.plan = plan
        self.store = store
        self.queue = DispatchQueue(label: "cloner.clone.\(id)", qos: .userInitiated, target: target)
        done.enter()
    }

    public var status: Status { lock.withLock { _status } }
    public var result: CloneResult? { lock.withLock { _result } }
    public var error: (any Error)? { lock.withLock { _error } }
    public var finishedAt: Date? { lock.withLock { _finishedAt } }
    /// How long the job's transaction ran (zero for a job that never ran), for the engine's
    /// estimate of how long the queue behind it will take.
    public var ranFor: Duration { lock.withLock { _ranFor } }

    /// On the job's queue: `starting`, then one write transaction running `before`, the copy and
    /// `after`; then `completion` on that same queue. A `starting` that throws ends the job there.
    func start(
        starting: @escaping @Sendable () throws -> Void = {},
        before: @escaping @Sendable (any StoreContext) throws -> Void,
        after: @escaping @Sendable (any StoreContext, CloneResult) throws -> Void,
        completion: @escaping @Sendable (CloneJob) -> Void
    ) {
        let queuedAt = ContinuousClock.now
        queue.async { [self] in
            // Behind the store's writer queue a job waits for the clones before it, as a write
            // waits for the writer gate, and gives up after as long (503, `busy`).
            let waited = ContinuousClock.now - queuedAt
            if waited > store.writerWait {
                endUnstarted(StoreError.busy(waited: waited), completion: completion)
                return
            }
            // What others read (the job's row, through `starting`) says running before this
            // process does: a client that saw `running` here never reads `queued` elsewhere.
            do {
                try starting()
            } catch {
                endUnstarted(error, completion: completion)
                return
            }
            lock.withLock {
                _status = .running
                _runningSince = .now
            }
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
                    _ranFor = _runningSince.map { .now - $0 } ?? .zero
                }
            } catch {
                lock.withLock {
                    _error = error
                    _status = .failed
                    _finishedAt = Date()
                    _ranFor = _runningSince.map { .now - $0 } ?? .zero
                }
            }
            completion(self)
            done.leave()
        }
    }

    /// Ends a job that never opened its transaction, with `error`.
    private func endUnstarted(_ error: any Error, completion: @Sendable (CloneJob) -> Void) {
        lock.withLock {
            _error = error
            _status = .failed
            _finishedAt = Date()
        }
        completion(self)
        done.leave()
    }

    /// Blocks until the job has finished (for callers that already run on a worker queue).
    public func wait() {
        done.wait()
    }
}
