import ClonerStore
import Foundation

/// One clone running on its own private serial `DispatchQueue` (the product owner's rule: no two
/// clones share a queue, and none runs on the caller's thread or an event loop).
///
/// `@unchecked Sendable`: the mutable state (`status`, `result`, `error`, `finishedAt`) is only
/// touched under `lock`; everything else is immutable or itself thread-safe (`CloneProgress`).
public final class CloneJob: @unchecked Sendable {
    public enum Status: String, Sendable, Codable {
        case queued, running, succeeded, failed
    }

    public let id: String
    public let request: CloneRequest
    public let progress = CloneProgress()
    public let createdAt = Date()
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var _status: Status = .queued
    private var _result: CloneResult?
    private var _error: (any Error)?
    private var _finishedAt: Date?

    init(id: String, request: CloneRequest) {
        self.id = id
        self.request = request
        self.queue = DispatchQueue(label: "cloner.clone.\(id)", qos: .userInitiated)
    }

    public var status: Status { lock.withLock { _status } }
    public var result: CloneResult? { lock.withLock { _result } }
    public var error: (any Error)? { lock.withLock { _error } }
    public var finishedAt: Date? { lock.withLock { _finishedAt } }

    /// Runs `work` on the job's queue, then `completion` on that same queue.
    func start(_ work: @escaping @Sendable (CloneProgress) throws -> CloneResult,
               completion: @escaping @Sendable (CloneJob) -> Void) {
        queue.async { [self] in
            lock.withLock { _status = .running }
            do {
                let result = try work(progress)
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
