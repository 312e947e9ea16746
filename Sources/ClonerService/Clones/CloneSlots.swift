import ClonerConcurrency

/// Bounds the clone jobs of this process (`maxConcurrentClones`): a slot is taken before a job is
/// queued and given back when it has finished, so a burst of clones answers 503 at once instead of
/// piling up queues and threads behind the store's writer.
final class CloneSlots: Sendable {
    let limit: Int
    private let taken = LockedValue(0)

    init(limit: Int) {
        precondition(limit > 0, "maxConcurrentClones must be positive, got \(limit)")
        self.limit = limit
    }

    /// Takes a slot if one is free.
    func acquire() -> Bool {
        taken.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() {
        taken.withLock { count in
            precondition(count > 0, "a clone slot released twice")
            count -= 1
        }
    }

    var inUse: Int { taken.withLock { $0 } }
}
