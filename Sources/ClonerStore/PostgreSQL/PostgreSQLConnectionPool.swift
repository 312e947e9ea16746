import Foundation

/// A bounded pool of PostgreSQL connections, each handed to one borrower at a time.
///
/// At most `maximumConnections` sessions are open: PostgreSQL's `max_connections` is shared by
/// every replica, so each must stay within its share. A borrower that finds all of them in use
/// waits up to `checkoutTimeout` and then gets a `.poolExhausted` error (the service answers 503)
/// rather than queueing without bound. Connections are opened lazily, and a connection whose
/// session died while idle (server restart, `pg_terminate_backend`) is re-opened at checkout.
///
/// A failover moves the primary: a session that finds its node lost (the session gone, the server
/// shutting down, or a standby now) is not the only one — every session opened before it reaches
/// the same node. The pool then drops them all at once (a new generation), rather than failing
/// one request per pooled session, and the next checkouts open sessions through the URI, which
/// finds whichever node is primary. It tells the loss and the first session after it
/// (`StoreConnectionEvent`).
///
/// Thread-safety: `@unchecked Sendable` because all state (`idle`, `openCount`, `isClosed`, the
/// generation and the counters) is
/// touched only while holding `condition`, and a connection leaves `idle` before its borrower
/// uses it and returns only after — so no connection is ever used by two threads at once.
/// `withConnection` blocks the calling thread while it waits: call it from the store's queues
/// or threads, not from a Swift concurrency task executor.
package final class PostgreSQLConnectionPool: @unchecked Sendable {
    package struct Configuration: Sendable {
        package var uri: String
        package var maximumConnections: Int
        package var checkoutTimeout: Duration
        package var connectTimeoutSeconds: Int

        package init(
            uri: String, maximumConnections: Int = 10, checkoutTimeout: Duration = .seconds(5),
            connectTimeoutSeconds: Int = 10
        ) {
            precondition(maximumConnections > 0, "a pool needs at least one connection")
            self.uri = uri
            self.maximumConnections = maximumConnections
            self.checkoutTimeout = checkoutTimeout
            self.connectTimeoutSeconds = connectTimeoutSeconds
        }
    }

    package let configuration: Configuration
    /// The URI with its password replaced by `***`, for logs.
    package let redactedURI: String
    private let condition = NSCondition()
    private var idle: [PostgreSQLConnection] = []
    private var openCount = 0
    private var waiterCount = 0
    private var isClosed = false
    /// Stepped when a node is lost: sessions of an earlier generation are closed, not lent.
    private var generation = 0
    /// Whether a loss was told and no write has committed since.
    private var restorePending = false
    private var reconnects = 0
    private var nodeLosses = 0
    private let events: @Sendable (StoreConnectionEvent) -> Void

    package init(configuration: Configuration, events: @escaping @Sendable (StoreConnectionEvent) -> Void = { _ in }) {
        self.configuration = configuration
        self.events = events
        redactedURI = PostgreSQLURI.redacted(configuration.uri)
    }

    /// Lends a connection to `body`, opening or waiting for one as needed. The connection goes
    /// back to the pool afterwards, with any transaction `body` left open rolled back.
    @discardableResult
    package func withConnection<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Open sessions, those lent, borrowers waiting, and the losses and reconnections since start.
    package var statistics: StoreConnectionStatistics {
        condition.lock()
        defer { condition.unlock() }
        return StoreConnectionStatistics(
            open: openCount, inUse: openCount - idle.count, waiting: waiterCount, reconnects: reconnects, nodeLosses: nodeLosses)
    }

    /// Closes the idle connections and refuses further checkouts; connections still lent are
    /// closed when they come back. Waiting borrowers are woken and fail.
    package func close() {
        condition.lock()
        isClosed = true
        let closing = takeIdle()
        condition.unlock()
        _ = closing  // PQfinish runs in deinit, outside the lock
    }

    /// Closes the idle connections but keeps the pool open: the next checkouts open new ones.
    /// Connections lent out are kept when they come back.
    package func closeIdle() {
        condition.lock()
        let closing = takeIdle()
        condition.unlock()
        _ = closing  // PQfinish runs in deinit, outside the lock
    }

    private func checkout() throws(PostgreSQLError) -> PostgreSQLConnection {
        let deadline = Date().addingTimeInterval(configuration.checkoutTimeout.timeInterval)
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw PostgreSQLError(
                    kind: .connection, code: .connectionDoesNotExist,
                    message: "the connection pool is closed", connection: redactedURI)
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return try revived(connection)
            }
            if openCount < configuration.maximumConnections {
                openCount += 1
                condition.unlock()
                do {
                    let connection = try PostgreSQLConnection(
                        uri: configuration.uri,
                        connectTimeoutSeconds: configuration.connectTimeoutSeconds)
                    opened(connection)
                    return connection
                } catch {
                    release(slotOf: nil)
                    noteLoss(of: nil, reason: error.message)
                    throw error
                }
            }
            waiterCount += 1
            let signalled = condition.wait(until: deadline)
            waiterCount -= 1
            if !signalled, Date() >= deadline {
                let open = openCount
                condition.unlock()
                throw PostgreSQLError(
                    kind: .poolExhausted, code: nil,
                    message: "connection pool exhausted: all \(open) connections stayed in use for "
                        + "\(configuration.checkoutTimeout) (maximum \(configuration.maximumConnections))",
                    connection: redactedURI)
            }
        }
    }

    /// An idle connection checked before lending: one whose session died is re-opened; one that
    /// cannot be re-opened gives up its slot, and the borrower gets the connection error.
    private func revived(_ connection: PostgreSQLConnection) throws(PostgreSQLError) -> PostgreSQLConnection {
        if connection.isHealthy { return connection }
        do {
            try connection.reopen()
            opened(connection)
            return connection
        } catch {
            release(slotOf: connection)
            noteLoss(of: nil, reason: error.message)
            throw error
        }
    }

    /// A session just opened (or re-opened) joins the current generation; one opened while a loss
    /// is pending counts as a reconnection.
    private func opened(_ connection: PostgreSQLConnection) {
        condition.lock()
        connection.poolGeneration = generation
        if restorePending { reconnects += 1 }
        condition.unlock()
    }

    /// A write committed on `connection`: the first after a loss says the store is back, and on
    /// which node. A session merely opened is not enough — a standby takes sessions too.
    package func noteWriteCommitted(on connection: PostgreSQLConnection) {
        condition.lock()
        let restored = restorePending && connection.poolGeneration == generation
        if restored { restorePending = false }
        condition.unlock()
        if restored { events(.restored(node: connection.node)) }
    }

    /// A node lost, found by `connection` (nil: a session could not be opened): the first report of
    /// a generation drops the idle sessions and starts the next; later ones add nothing.
    private func noteLoss(of connection: PostgreSQLConnection?, reason: String) {
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
        _ = closing  // PQfinish runs in deinit, outside the lock
        events(.lost(reason: reason))
    }

    /// The idle sessions, taken out of the pool (their slots given up, waiters woken) to be
    /// closed once the caller has let go of the lock it holds.
    private func takeIdle() -> [PostgreSQLConnection] {
        let taken = idle
        idle.removeAll()
        openCount -= taken.count
        condition.broadcast()
        return taken
    }

    private func checkin(_ connection: PostgreSQLConnection) {
        // A connection that comes back inside a transaction (a body that escaped BEGIN without
        // COMMIT) must not hand that transaction to the next borrower.
        if connection.isConnected, connection.isInTransaction { try? connection.execute("ROLLBACK") }
        if connection.hasLostItsNode { noteLoss(of: connection, reason: connection.lossReason) }
        condition.lock()
        if isClosed || connection.poolGeneration < generation {
            openCount -= 1
            condition.signal()
            condition.unlock()
            return
        }
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    /// Gives up a connection's slot (it failed to open or re-open) and wakes one waiter, which
    /// may now open a fresh connection.
    private func release(slotOf connection: PostgreSQLConnection?) {
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
