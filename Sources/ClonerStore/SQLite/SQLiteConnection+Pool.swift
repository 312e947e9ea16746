/// SQLite's answers to the pool: a connection to a file does not die while idle and has no node to
/// lose, so it is always lent as it is; one left inside a transaction is rolled back.
extension SQLiteConnection: PooledConnection {
    var isHealthy: Bool { true }

    func reopen() throws {}

    func rollBackAbandonedTransaction() {
        if isInTransaction { try? execute("ROLLBACK") }
    }

    var lostNodeReason: String? { nil }

    var node: String { path }

    static func poolFailure(exhausted: Bool, message: String, location: String) -> any Error {
        SQLiteError(resultCode: exhausted ? .busy : .error, message: "\(message) (\(location))")
    }

    static func lossReason(openFailure error: any Error) -> String { "\(error)" }
}

/// The store's connections to its file: readers beside the one writer, each lent to one thread.
typealias SQLiteConnectionPool = StoreConnectionPool<SQLiteConnection>

extension StoreConnectionPool where Connection == SQLiteConnection {
    /// Opens as many connections as borrowers ask for at once (SQLite's WAL readers do not wait
    /// for each other, and writers queue at the store's gate), keeping `maximumIdle` between them.
    convenience init(path: String, maximumIdle: Int, open: @escaping @Sendable () throws -> SQLiteConnection) {
        self.init(
            limits: .init(maximumConnections: .max, maximumIdle: maximumIdle, checkoutTimeout: .seconds(3600)),
            location: path, open: open)
    }
}
