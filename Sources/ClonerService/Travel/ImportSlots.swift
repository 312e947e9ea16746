import ClonerConcurrency

/// How many imports read, check and write at once (`maxConcurrentImports`). An import holds a few
/// words per object of its document and spools its checked lines to a temporary file (up to the
/// largest import body), so their number bounds both the memory and the spool space of all of
/// them. The others wait their turn in arrival order, as clones do, rather than being refused:
/// waiting, an import holds its connection and what the connection buffered of its body (a full
/// buffer pauses the client), nothing more.
final class ImportSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let count: Int
    private let state: LockedValue<State>
    /// `cloner_imports_waiting`, set under the lock so that the gauge follows the queue in order.
    private let metrics: ServiceMetrics

    init(count: Int, metrics: ServiceMetrics) {
        precondition(count > 0, "maxConcurrentImports must be positive, got \(count)")
        self.count = count
        self.metrics = metrics
        state = LockedValue(State(free: count))
    }

    /// A slot, once one is free: given back by `ImportSlot.release()`, or when the last reference
    /// to it goes (whatever path the import took).
    func acquire() async -> ImportSlot {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                metrics.setImportsWaiting(state.waiting.count)
                return false
            }
            if granted { continuation.resume() }
        }
        return ImportSlot(slots: self)
    }

    /// Hands the slot to the longest waiting import, or frees it.
    fileprivate func giveBack() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            let next = state.waiting.removeFirst()
            metrics.setImportsWaiting(state.waiting.count)
            return next
        }
        next?.resume()
    }
}

/// One import's turn. Its release is idempotent, and also happens when the slot is dropped, so
/// an import that fails anywhere — before or after it became a job — never keeps its turn.
final class ImportSlot: Sendable {
    private let slots: ImportSlots
    private let held = LockedValue(true)

    fileprivate init(slots: ImportSlots) {
        self.slots = slots
    }

    func release() {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        if wasHeld { slots.giveBack() }
    }

    deinit { release() }
}
