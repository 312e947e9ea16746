import ClonerClone
import Foundation

/// Asynchronous jobs of this process (clones and imports) that have not finished yet, for live progress on `GET /jobs/{id}`
/// and for the shutdown drain. Finished jobs are answered from their persisted row instead.
///
/// `@unchecked Sendable`: `running` is only touched while `condition` is locked, which is also what
/// `waitForRunningJobs` sleeps on, so the drain wakes the moment the last job leaves instead of
/// polling. (A `LockedValue` has no condition variable to wait on.)
final class JobRegistry: @unchecked Sendable {
    private let condition = NSCondition()
    private var running: [String: any RunningJob] = [:]
    /// Registered before the job starts, so a cancel finds it even before the job is in `running`.
    private var cancellations: [String: JobCancellation] = [:]

    func add(_ job: any RunningJob) {
        condition.withLock { running[job.id] = job }
    }

    func remove(_ id: String) {
        condition.withLock {
            running[id] = nil
            cancellations[id] = nil
            if running.isEmpty { condition.broadcast() }
        }
    }

    func job(_ id: String) -> (any RunningJob)? {
        condition.withLock { running[id] }
    }

    func register(_ cancellation: JobCancellation, for id: String) {
        condition.withLock { cancellations[id] = cancellation }
    }

    /// The cancellation of job `id` while it has not finished in this process.
    func cancellation(_ id: String) -> JobCancellation? {
        condition.withLock { cancellations[id] }
    }

    var count: Int { condition.withLock { running.count } }

    /// Waits until every running job has finished or `timeout` passed; returns how many are left.
    func waitForRunningJobs(timeout: Duration) -> Int {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        return condition.withLock {
            while !running.isEmpty && condition.wait(until: deadline) {}
            return running.count
        }
    }
}
