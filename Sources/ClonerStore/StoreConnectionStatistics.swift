/// A pooled backend's connections now and since start, for `/metrics`: what an operator watches
/// while a database fails over or a pool runs short.
public struct StoreConnectionStatistics: Sendable, Equatable {
    /// Sessions open, in use by a transaction, and transactions waiting for one.
    public var open: Int
    public var inUse: Int
    public var waiting: Int
    /// Sessions opened while a loss was pending (until a write committed again), since start.
    public var reconnects: Int
    /// Times a lost node made the pool drop its sessions, since start.
    public var nodeLosses: Int

    public init(open: Int, inUse: Int, waiting: Int, reconnects: Int, nodeLosses: Int) {
        (self.open, self.inUse, self.waiting, self.reconnects, self.nodeLosses) = (open, inUse, waiting, reconnects, nodeLosses)
    }
}
