import ClonerConcurrency

/// The bytes all imports in flight may hold for their unfinished lines (`maxBufferedImportBytes`).
/// An import reads its document a line at a time as the body arrives, and a line — one object,
/// its binary values as base64 — may be up to 256 MiB: one client with its share of connections
/// could otherwise make the service hold tens of gigabytes by sending long lines slowly. Past the
/// budget an import is refused with a 503 (the service is out of room for now, not the request
/// wrong), and what it held is given back.
final class ImportLineBudget: Sendable {
    let limit: Int
    private let held = LockedValue(0)
    private let metrics: ServiceMetrics

    init(limit: Int, metrics: ServiceMetrics) {
        self.limit = limit
        self.metrics = metrics
    }

    /// Moves one import's share from `old` to `new` bytes; false, changing nothing, when the new
    /// share does not fit beside the others'.
    func resize(from old: Int, to new: Int) -> Bool {
        held.withLock { held in
            guard new <= old || held - old + new <= limit else { return false }
            held += new - old
            // Set under the lock, so the gauge never shows an older total after a newer one.
            if new != old { metrics.setImportLineBytes(held) }
            return true
        }
    }

    /// The bytes held now, for the refusal's message.
    var inUse: Int { held.withLock { $0 } }
}
