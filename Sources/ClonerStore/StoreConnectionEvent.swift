/// A change in whether the database answers, told as it happens so an operator's log says when
/// the store was lost and when it came back, and on which node.
public enum StoreConnectionEvent: Sendable, Equatable {
    /// A session found its node gone, shutting down, or demoted to a standby: every pooled
    /// session to it was dropped, and the next opens look for the primary afresh.
    case lost(reason: String)
    /// The first session opened after a loss: `node` is the host and port it reached.
    case restored(node: String)
}
