import ClonerConcurrency

/// The bytes all exports in flight may keep in their spools (`maxExportSpoolBytes`): what their
/// producers wrote and their clients have not taken yet. An export reads its graph at store speed
/// into a spool so that no transaction or pooled connection waits on a client; without a bound,
/// clients that ask for large exports and never read could fill the disk instead.
final class ExportSpoolBudget: Sendable {
    let limit: Int
    /// The room an export needs to start: one piece of the exporter's. Below it the service is
    /// out of room for now, and a new export answers 503 rather than starting only to be cut.
    let startingRoom: Int
    private let held = LockedValue(0)
    private let metrics: ServiceMetrics

    init(limit: Int, startingRoom: Int, metrics: ServiceMetrics) {
        self.limit = limit
        self.startingRoom = min(limit, startingRoom)
        self.metrics = metrics
    }

    /// Whether a new export may start now.
    var admitsAnother: Bool { held.withLock { limit - $0 >= startingRoom } }

    /// Takes `bytes` more for one spool; false, taking nothing, when they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard held + bytes <= limit else { return false }
            held += bytes
            // Set under the lock, so the gauge never shows an older total after a newer one.
            if bytes != 0 { metrics.setExportSpoolBytes(held) }
            return true
        }
    }

    /// Gives back bytes a spool no longer holds.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        held.withLock { held in
            held -= bytes
            metrics.setExportSpoolBytes(held)
        }
    }

    /// The bytes held now, for the refusal's message.
    var inUse: Int { held.withLock { $0 } }
}
