import ClonerConcurrency
import ClonerStore

/// One job's `DELETE /jobs/{id}` in this process: whether it was asked, and the way to stop the
/// statement its transaction runs. The job reports where it is (`begin`, `beginCommit`); a cancel
/// decides under the same lock, so it either interrupts the work before the job reaches its
/// commit, or loses — a COMMIT in flight is never interrupted, and such a job succeeds.
///
/// An interrupt can land between two statements, where it does nothing; the job then stops at
/// `beginCommit`, so a cancelled job never commits whatever the timing.
final class JobCancellation: Sendable {
    /// The job was cancelled: its transaction rolls back and its row reads `cancelled`.
    struct Cancelled: Error, CustomStringConvertible {
        var description: String { "the job was cancelled" }
    }

    private enum State: Sendable {
        /// Queued: cancelling means it never starts its work.
        case waiting
        /// In its transaction, with the way to stop the running statement.
        case running(any StatementInterrupter)
        /// Past its work, committing: too late to cancel.
        case committing
        case cancelled
    }

    private let state = LockedValue<State>(.waiting)

    var isCancelled: Bool {
        state.withLock { if case .cancelled = $0 { true } else { false } }
    }

    /// Asks the job to stop; true when it will (or already did), false when it is already committing.
    func cancel() -> Bool {
        state.withLock { state in
            switch state {
            case .waiting:
                state = .cancelled
                return true
            case .running(let interrupter):
                state = .cancelled
                interrupter.interrupt()
                return true
            case .cancelled:
                return true
            case .committing:
                return false
            }
        }
    }

    /// First in the job's transaction: throws `Cancelled` when it was cancelled while queued;
    /// otherwise the transaction's statements can be interrupted from now on.
    func begin(in context: any StoreContext) throws {
        try state.withLock { state throws(Cancelled) in
            if case .cancelled = state { throw Cancelled() }
            state = .running(context.statementInterrupter())
        }
    }

    /// Last before the job's final write and commit: throws `Cancelled` when it was cancelled;
    /// otherwise no cancel reaches it any more.
    func beginCommit() throws {
        try state.withLock { state throws(Cancelled) in
            if case .cancelled = state { throw Cancelled() }
            state = .committing
        }
    }
}
