import Foundation

/// A bounded pool of a backend's connections, each handed to one borrower at a time: the one
/// pool both stores use, over the few answers `PooledConnection` gives.
///
/// At most `maximumConnections` sessions are open (PostgreSQL's `max_connections` is shared by
/// every replica, so each must stay within its share), and at most `maximumIdle` wait between
/// borrowers (SQLite's readers beyond it are closed rather than kept). A borrower that finds every
/// slot in use waits up to `checkoutTimeout` and then gets the backend's "exhausted" error (the
/// service answers 503) rather than queueing without bound. Connections are opened lazily, and an
/// idle one that is no longer `isHealthy` (a session the server closed) is re-opened at checkout.
///
/// A failover moves the primary: a session that finds its node lost is not the only one — every
/// session opened before it reaches the same node. The pool then drops them all at once (a new
/// generation) rather than failing one request per pooled session, and the next checkouts open
/// sessions afresh, which find whichever node is primary now. It tells the loss and the first
/// write after it (`StoreConnectionEvent`).
///
/// Thread-safety: `@unchecked Sendable` because all state (`idle`, `openCount`, `isClosed`, the
/// generation and the counters) is touched only while holding `condition`, and a connection
/// leaves `idle` before its borrower uses it and returns only after — so no connection is ever
/// used by two threads at once. `withConnection` blocks the calling thread while it waits: call
/// it from the store's queues or threads, not from a Swift concurrency task executor.
final class StoreConnectionPool<Connection: PooledConnection>: @unchecked Sendable {
    struct Limits: Sendable {
        var maximumConnections: Int
        var maximumIdle: Int
        var checkoutTimeout: Duration

        init(maximumConnections: Int, maximumIdle: Int? = nil, checkoutTimeout: Duration) {
            precondition(maximumConnections > 0, "a pool needs at least one connection")
            self.maximumConnections = maximumConnections
            self.maximumIdle = min(maximumIdle ?? maximumConnections, maximumConnections)
            self.checkoutTimeout = checkoutTimeout
        }
    }

    let limits: Limits
    /// Where the connections lead, as logs may show it (a path, or a URI without its password).
    let location: String
    private let open: @Sendable () throws -> Connection
    private let events: @Sendable (StoreConnectionEvent) -> Void
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var openCount = 0
    private var waiterCount = 0
    private var isClosed = false
    /// Stepped when a node is lost: sessions of an earlier generation are closed, not lent.
    private var generation = 0
    /// Whether a loss was told and no write has committed since.
    private var restorePending = false
    private var reconnects = 0
    private var nodeLosses = 0

    init(
        limits: Limits, location: String, events: @escaping @Sendable (StoreConnectionEvent) -> Void = { _ in },
        open: @escaping @Sendable () throws -> Connection
    ) {
        self.limits = limits
        self.location = location
        self.events = events
        self.open = open
    }

    /// Lends a connection to `body`, opening or waiting for one as needed. The connection goes
    /// back to the pool afterwards, with any transaction `body` left open rolled back.
    @discardableResult
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Open sessions, those lent, borrowers waiting, and the losses and reconnections since start.
    var statistics: StoreConnectionStatistics {
        condition.lock()
        defer { condition.unlock() }
        return StoreConnectionStatistics(
            open: openCount, inUse: openCount - idle.count, waiting: waiterCount, reconnects: reconnects, nodeLosses: nodeLosses)
    }

    /// Closes the idle connections and refuses further checkouts; connections still lent are
    /// closed when they come back. Waiting borrowers are woken and fail.
    func close() {
        condition.lock()
        isClosed = true
        let closing = takeIdle()
        condition.unlock()
        _ = closing  // closed as they are released, outside the lock
    }

    /// Closes the idle connections but keeps the pool open: the next checkouts open new ones.
    /// Connections lent out are kept when they come back.
    func closeIdle() {
        condition.lock()
        let closing = takeIdle()
        condition.unlock()
        _ = closing  // closed as they are released, outside the lock
    }

    /// A write committed on `connection`: the first after a loss says the store is back, and on
    /// which node. A session merely opened is not enough — a standby takes sessions too.
    func noteWriteCommitted(on connection: Connection) {
        condition.lock()
        let restored = restorePending && connection.poolGeneration == generation
        if restored { restorePending = false }
        condition.unlock()
        if restored { events(.restored(node: connection.node)) }
    }

    private func checkout() throws -> Connection {
        let deadline = ContinuousClock.now + limits.checkoutTimeout
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw Connection.poolFailure(exhausted: false, message: "the connection pool is closed", location: location)
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return try revived(connection)
            }
            if openCount < limits.maximumConnections {
                openCount += 1
                condition.unlock()
                do {
                    let connection = try open()
                    opened(connection)
                    return connection
                } catch {
                    throw failedToOpen(error)
                }
            }
            waiterCount += 1
            let left = ContinuousClock.now.duration(to: deadline)
            let signalled = left > .zero && condition.wait(until: Date(timeIntervalSinceNow: left.timeInterval))
            waiterCount -= 1
            if !signalled, ContinuousClock.now >= deadline {
                let open = openCount
                condition.unlock()
                throw Connection.poolFailure(
                    exhausted: true,
                    message: "connection pool exhausted: all \(open) connections stayed in use for "
                        + "\(limits.checkoutTimeout) (maximum \(limits.maximumConnections))", location: location)
            }
        }
    }

    /// An idle connection checked before lending: one whose session died is re-opened; one that
    /// cannot be re-opened gives up its slot, and the borrower gets the connection error.
    private func revived(_ connection: Connection) throws -> Connection {
        if connection.isHealthy { return connection }
        do {
            try connection.reopen()
            opened(connection)
            return connection
        } catch {
            throw failedToOpen(error)
        }
    }

    /// A session just opened (or re-opened) joins the current generation; one opened while a loss
    /// is pending counts as a reconnection.
    private func opened(_ connection: Connection) {
        condition.lock()
        connection.poolGeneration = generation
        if restorePending { reconnects += 1 }
        condition.unlock()
    }

    /// A node lost, found by `connection` (nil: a session could not be opened): the first report of
    /// a generation drops the idle sessions and starts the next; later ones add nothing.
    private func noteLoss(of connection: Connection?, reason: String) {
        condition.lock()
        guard connection.map({ $0.poolGeneration == generation }) ?? !restorePending else {
            condition.unlock()
            return
        }
        generation += 1
        nodeLosses += 1
        restorePending = true
        let closing = takeIdle()
        condition.unlock()
        _ = closing  // closed as they are released, outside the lock
        events(.lost(reason: reason))
    }

    /// The idle sessions, taken out of the pool (their slots given up, waiters woken) to be
    /// closed once the caller has let go of the lock it holds.
    private func takeIdle() -> [Connection] {
        let taken = idle
        idle.removeAll()
        openCount -= taken.count
        condition.broadcast()
        return taken
    }

    private func checkin(_ connection: Connection) {
        connection.rollBackAbandonedTransaction()
        if let reason = connection.lostNodeReason { noteLoss(of: connection, reason: reason) }
        condition.lock()
        if isClosed || connection.poolGeneration < generation || idle.count >= limits.maximumIdle {
            openCount -= 1
            condition.signal()
            condition.unlock()
            return
        }
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    /// A session that could not be opened or re-opened: its slot given up and the node taken as
    /// lost; the error is the borrower's.
    private func failedToOpen(_ error: any Error) -> any Error {
        releaseSlot()
        noteLoss(of: nil, reason: Connection.lossReason(openFailure: error))
        return error
    }

    /// Gives up a slot (its connection failed to open or re-open) and wakes one waiter, which may
    /// now open a fresh connection.
    private func releaseSlot() {
        condition.lock()
        openCount -= 1
        condition.signal()
        condition.unlock()
    }
}

extension Duration {
    /// Seconds as a `TimeInterval`, for `NSCondition.wait(until:)`.
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
