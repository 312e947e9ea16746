/// What `StoreConnectionPool` asks of a backend's connection: whether an idle one can still be
/// lent, how to mend one that cannot, what to undo when one comes back, and whether it found the
/// node behind it gone — the only places where the two databases decide differently about their
/// sessions. Everything else (slots, waiting, generations, counters) is the pool's, written once.
protocol PooledConnection: AnyObject {
    /// The pool's generation that opened (or re-opened) this session; set by the pool alone.
    var poolGeneration: Int { get set }

    /// Whether the idle session can be lent as it is, checked without a round trip.
    var isHealthy: Bool { get }

    /// Opens the session again with the same parameters, for one that is not `isHealthy`.
    func reopen() throws

    /// Rolls back a transaction a borrower left open (a bug, or a crash mid-body), so that the
    /// next borrower never inherits it.
    func rollBackAbandonedTransaction()

    /// Why the node behind this session can no longer take its writes (the session lost, the
    /// server shutting down or demoted), or nil: every pooled session to that node goes with it.
    var lostNodeReason: String? { get }

    /// The host and port the session reached, for the log line that says the store is back.
    var node: String { get }

    /// The error a checkout gets from a closed pool, or one whose sessions all stayed in use for
    /// the checkout timeout (`exhausted`: the service answers 503 and the client retries).
    static func poolFailure(exhausted: Bool, message: String, location: String) -> any Error

    /// What the log says when a session could not be opened at all (`error`, thrown by the
    /// pool's opener): the node is taken as lost.
    static func lossReason(openFailure error: any Error) -> String
}
