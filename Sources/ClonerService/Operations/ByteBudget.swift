import ClonerConcurrency

/// Bytes of memory that requests in flight share under one setting: each takes its share before
/// it holds the bytes and gives it back when done, so what they hold together stays under
/// `limit` however many arrive at once — the number of connections a client may open is no bound
/// on memory. Past the limit the request is refused (503: the service is out of room for now, not
/// the request wrong) before it holds anything.
final class ByteBudget: Sendable {
    let limit: Int
    private let held = LockedValue(0)
    /// Told the new total under the lock, so a gauge never shows an older total after a newer one.
    private let report: @Sendable (Int) -> Void

    init(limit: Int, report: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.limit = limit
        self.report = report
    }

    /// Moves one holder's share from `old` to `new` bytes; false, changing nothing, when the new
    /// share does not fit beside the others'. Shrinking always succeeds.
    func resize(from old: Int, to new: Int) -> Bool {
        held.withLock { held in
            guard new <= old || held - old + new <= limit else { return false }
            held += new - old
            if new != old { report(held) }
            return true
        }
    }

    /// The bytes held now, for a refusal's message.
    var inUse: Int { held.withLock { $0 } }
}
