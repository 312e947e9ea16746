import ClonerClone
import ClonerStore
import Foundation

/// An asynchronous import (`POST /{collection}/import` with `Prefer: respond-async`) while it runs
/// in this process: registered in the `JobRegistry` as a clone job is, so `GET /jobs/{id}` answers
/// its live status and progress from here, and the shutdown drain waits for it to commit or roll
/// back instead of closing the store under it.
///
/// `@unchecked Sendable`: the mutable state (`status`, `finishedAt`) is only touched under `lock`;
/// `progress` is itself thread-safe and the rest is immutable.
final class GraphImportJob: RunningJob, @unchecked Sendable {
    let id: String
    let progress = GraphCopyProgress()
    private let lock = NSLock()
    private var _status: JobStatus = .queued
    private var _finishedAt: Date?

    init(id: String, planned: Int) {
        self.id = id
        progress.setPlanned(planned)
    }

    var status: JobStatus { lock.withLock { _status } }
    var finishedAt: Date? { lock.withLock { _finishedAt } }

    func markRunning() {
        lock.withLock { _status = .running }
    }

    func finish(_ status: JobStatus) {
        lock.withLock {
            _status = status
            _finishedAt = Date()
        }
    }
}
