import Foundation

/// A bounded pool of PostgreSQL connections, each handed to one borrower at a time.
///
/// At most `maximumConnections` sessions are open: PostgreSQL's `max_connections` is shared by
/// every replica, so each must stay within its share. A borrower that finds all of them in use
/// waits up to `checkoutTimeout` and then gets a `.poolExhausted` error (the service answers 503)
/// rather than queueing without bound. Connections are opened lazily, and a connection whose
/// session died while idle (server restart, `pg_terminate_backend`) is re-opened at checkout.
///
/// Thread-safety: `@unchecked Sendable` because all state (`idle`, `openCount`, `isClosed`) is
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

    package init(configuration: Configuration) {
        self.configuration = configuration
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

    /// Open sessions, idle ones, and borrowers waiting (for metrics and tests).
    package var statistics: (open: Int, idle: Int, waiting: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (openCount, idle.count, waiterCount)
    }

    /// Closes the idle connections and refuses further checkouts; connections still lent are
    /// closed when they come back. Waiting borrowers are woken and fail.
    package func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        condition.broadcast()
        condition.unlock()
        _ = closing  // PQfinish runs in deinit, outside the lock
    }

    /// Closes the idle connections but keeps the pool open: the next checkouts open new ones.
    /// Connections lent out are kept when they come back.
    package func closeIdle() {
        condition.lock()
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        condition.broadcast()
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
                    return try PostgreSQLConnection(
                        uri: configuration.uri,
                        connectTimeoutSeconds: configuration.connectTimeoutSeconds)
                } catch {
                    release(slotOf: nil)
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
            return connection
        } catch {
            release(slotOf: connection)
            throw error
        }
    }

    private func checkin(_ connection: PostgreSQLConnection) {
        // A connection that comes back inside a transaction (a body that escaped BEGIN without
        // COMMIT) must not hand that transaction to the next borrower.
        if connection.isConnected, connection.isInTransaction { try? connection.execute("ROLLBACK") }
        condition.lock()
        if isClosed {
            openCount -= 1
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
