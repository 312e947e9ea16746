/// PostgreSQL's answers to the pool: an idle session is checked for a FATAL message waiting in its
/// socket (`isHealthy`), mended with `PQreset`, and taken as lost with its node when the server
/// said it is shutting down, starting or read-only (`hasLostItsNode`).
extension PostgreSQLConnection: PooledConnection {
    func rollBackAbandonedTransaction() {
        if isConnected, isInTransaction { try? execute("ROLLBACK") }
    }

    var lostNodeReason: String? { hasLostItsNode ? lossReason : nil }

    static func poolFailure(exhausted: Bool, message: String, location: String) -> any Error {
        exhausted
            ? PostgreSQLError(kind: .poolExhausted, code: nil, message: message, connection: location)
            : PostgreSQLError(kind: .connection, code: .connectionDoesNotExist, message: message, connection: location)
    }

    static func lossReason(openFailure error: any Error) -> String {
        (error as? PostgreSQLError)?.message ?? "\(error)"
    }
}

/// The store's sessions to one PostgreSQL database (or formation, through a multi-host URI).
typealias PostgreSQLConnectionPool = StoreConnectionPool<PostgreSQLConnection>

extension StoreConnectionPool where Connection == PostgreSQLConnection {
    /// Where and how many: the URI, the sessions this replica may hold at once (its share of
    /// `max_connections`), how long a borrower waits for one, and libpq's connect timeout.
    struct Configuration: Sendable {
        var uri: String
        var maximumConnections: Int
        var checkoutTimeout: Duration
        var connectTimeoutSeconds: Int

        init(uri: String, maximumConnections: Int = 10, checkoutTimeout: Duration = .seconds(5), connectTimeoutSeconds: Int = 10) {
            self.uri = uri
            self.maximumConnections = maximumConnections
            self.checkoutTimeout = checkoutTimeout
            self.connectTimeoutSeconds = connectTimeoutSeconds
        }
    }

    convenience init(configuration: Configuration, events: @escaping @Sendable (StoreConnectionEvent) -> Void = { _ in }) {
        let (uri, timeout) = (configuration.uri, configuration.connectTimeoutSeconds)
        self.init(
            limits: .init(maximumConnections: configuration.maximumConnections, checkoutTimeout: configuration.checkoutTimeout),
            location: PostgreSQLURI.redacted(uri), events: events
        ) { try PostgreSQLConnection(uri: uri, connectTimeoutSeconds: timeout) }
    }

    /// The URI with its password replaced by `***`, for logs.
    var redactedURI: String { location }
}
