/// A change in whether the database answers, told as it happens so an operator's log says when
/// the store was lost and when it came back, and on which node.
public enum StoreConnectionEvent: Sendable, Equatable {
    /// A session found its node gone, shutting down, or demoted to a standby: every pooled
    /// session to it was dropped, and the next opens look for the primary afresh.
    case lost(reason: String)
    /// The first write committed after a loss: `node` is the host and port that took it.
    case restored(node: String)
}
