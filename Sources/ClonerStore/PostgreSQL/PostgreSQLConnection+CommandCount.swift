extension PostgreSQLConnection {
    /// Runs `body` and counts the commands it sent to the server (round trips: a multi-statement
    /// `execute` counts once). PostgreSQL's side of `SQLiteConnection.countingStatements`, for
    /// tests that prove a bulk operation's statements do not grow with its size.
    package func countingCommands<T>(_ body: () throws -> T) rethrows -> (result: T, commands: Int) {
        let before = commandsSent
        let result = try body()
        return (result, commandsSent - before)
    }

    /// Runs `body` and counts the times it waited on the server (a pipeline once), for tests
    /// that hold a small clone to the round trips it needs.
    package func countingRoundTrips<T>(_ body: () throws -> T) rethrows -> (result: T, roundTrips: Int) {
        let before = roundTrips
        let result = try body()
        return (result, roundTrips - before)
    }
}

extension StoreContext {
    /// The PostgreSQL connection under a PostgreSQL context, for tests and tools (package access:
    /// never part of the public API). Calling it on another backend's context is a programmer error.
    package var postgreSQLConnection: PostgreSQLConnection {
        guard let context = self as? PostgreSQLStoreContext else { preconditionFailure("not a PostgreSQL store context: \(type(of: self))") }
        return context.connection
    }
}
