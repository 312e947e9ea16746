import ClonerConcurrency
import Dispatch

/// Runs export producers, at most `limit` at once and the rest in arrival order. Each producer
/// holds a read transaction (on PostgreSQL a pooled connection) and a thread while it reads its
/// graph: however many exports are asked for, they never take every read worker's turn or every
/// pooled connection from the requests, the clones and the lease renewal. A waiting export holds
/// no thread, only its place in the line.
final class ExportProducers: Sendable {
    let limit: Int
    private struct Line {
        var running = 0
        /// Few entries (each is a connection waiting for its export), so taking the first is cheap.
        var waiting: [@Sendable () -> Void] = []
    }
    private let line = LockedValue(Line())
    private let queue = DispatchQueue(label: "cloner.export", qos: .userInitiated, attributes: .concurrent)

    init(limit: Int) {
        precondition(limit > 0, "exports need at least one producer")
        self.limit = limit
    }

    /// Half the read workers, and no more than a quarter of the PostgreSQL pool (its size is
    /// ignored by SQLite, whose readers each open a connection); at least one.
    static func defaultLimit(readWorkers: Int, poolSize: Int) -> Int {
        max(1, min(readWorkers / 2, poolSize / 4))
    }

    /// Runs `work` now if fewer than `limit` producers run, else once the earlier ones are done.
    func submit(_ work: @escaping @Sendable () -> Void) {
        let startNow = line.withLock { line in
            guard line.running < limit else {
                line.waiting.append(work)
                return false
            }
            line.running += 1
            return true
        }
        if startNow { run(work) }
    }

    private func run(_ work: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            work()
            let next: (@Sendable () -> Void)? = line.withLock { line in
                guard !line.waiting.isEmpty else {
                    line.running -= 1
                    return nil
                }
                return line.waiting.removeFirst()
            }
            if let next { run(next) }
        }
    }
}
