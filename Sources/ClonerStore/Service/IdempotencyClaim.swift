import Foundation

/// What reserving an `Idempotency-Key` found (docs/architecture.md#replicas): the reservation is made in its own
/// short transaction before the clone starts, so two replicas receiving the same key at the same
/// moment make one clone between them.
public enum IdempotencyClaim: Sendable, Hashable {
    /// The key is this caller's now: newly reserved, or taken over from a reservation whose
    /// owner's lease ran out (that owner died; its clone rolled back).
    case reserved
    /// The key's request has finished: replay this answer (when the fingerprints agree).
    case finished(IdempotencyRecord)
    /// Another request holding the key is still running, its owner alive: a retry must wait.
    case inProgress(fingerprint: String)
}
