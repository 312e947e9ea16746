import ClonerClone
import Foundation
import Synchronization

/// Clone jobs of this process that have not finished yet, for live progress on `GET /jobs/{id}`
/// and for the shutdown drain. Finished jobs are answered from their persisted row instead.
final class JobRegistry: Sendable {
    private let running = Mutex<[String: CloneJob]>([:])

    func add(_ job: CloneJob) {
        running.withLock { $0[job.id] = job }
    }

    func remove(_ id: String) {
        running.withLock { $0[id] = nil }
    }

    func job(_ id: String) -> CloneJob? {
        running.withLock { $0[id] }
    }

    var count: Int { running.withLock { $0.count } }

    /// Waits until every running job has finished or `timeout` passed; returns how many are left.
    func waitForRunningJobs(timeout: Duration) -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let left = count
            if left == 0 { return 0 }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return count
    }
}
