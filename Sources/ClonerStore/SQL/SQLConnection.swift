/// A backend's connection as the store SQL written once (`SQLStoreContext`) runs statements on
/// it: each backend keeps its own statement cache and value types behind these two calls (SQLite's
/// prepared-statement cache, PostgreSQL's per-connection prepared statements), and names the
/// dialect its SQL text is written in.
protocol SQLConnection: AnyObject {
    associatedtype Row: SQLRow
    associatedtype Dialect: SQLDialect
    /// The backend's own value type: an attribute's value as its column stores it is one
    /// (`SQLStoreContext.storedValue`), which an `SQLArgument` does not spell.
    associatedtype Value

    /// Runs an INSERT, UPDATE or DELETE and returns how many rows it changed.
    @discardableResult
    func perform(_ sql: String, values: [Value]) throws -> Int
    /// Runs an INSERT, UPDATE or DELETE of the open transaction whose count the caller does not
    /// need. A backend may send it with its next statement, in that one's round trip (PostgreSQL):
    /// a failure is then thrown by that statement, at the latest by the COMMIT, and fails the
    /// transaction all the same. SQLite runs it at once.
    func performBeforeNextCommand(_ sql: String, values: [Value]) throws
    /// Runs INSERTs, UPDATEs or DELETEs in order, each's count of changed rows in the answer: one
    /// after the other on SQLite, together where the backend can send them so (PostgreSQL's
    /// pipeline, one round trip). The first failure is thrown, and fails the transaction.
    func performInOrder(_ statements: [(sql: String, values: [Value])]) throws -> [Int]
    static func value(_ argument: SQLArgument) -> Value
    /// Runs a query and hands each row to `body`; the row is valid only inside the call.
    func forEachRow(_ sql: String, arguments: [SQLArgument], _ body: (Row) throws -> Void) throws

    // MARK: blobs and service tables

    /// Runs `body`, a write that may meet a row another writer stored meanwhile under the same
    /// unique key: false when it did, the transaction still usable and `body`'s changes undone
    /// (a statement-level rollback on SQLite, a savepoint on PostgreSQL, where an error would
    /// otherwise abort the whole transaction).
    func skippingUniqueViolation(_ body: () throws -> Void) throws -> Bool

    // MARK: jobs a user can see, watch and stop

    /// What stops this connection's running statement from another thread (`DELETE /jobs/{id}`).
    func statementInterrupter() -> any StatementInterrupter
}

extension SQLConnection {
    /// The same with arguments spelled once for every backend.
    @discardableResult
    func perform(_ sql: String, arguments: [SQLArgument]) throws -> Int {
        try perform(sql, values: arguments.map(Self.value))
    }

    func performBeforeNextCommand(_ sql: String, values: [Value]) throws { try perform(sql, values: values) }

    func performInOrder(_ statements: [(sql: String, values: [Value])]) throws -> [Int] {
        try statements.map { try perform($0.sql, values: $0.values) }
    }

    /// The integer in the first column of the first row; nil when there is no row or it is NULL.
    func int64(_ sql: String, arguments: [SQLArgument]) throws -> Int64? {
        var value: Int64?
        var seen = false
        try forEachRow(sql, arguments: arguments) { row in
            guard !seen else { return }
            seen = true
            value = row.optionalInt64(0)
        }
        return value
    }

    /// The integers of the first column, in row order.
    func int64s(_ sql: String, arguments: [SQLArgument]) throws -> [Int64] {
        var values: [Int64] = []
        try forEachRow(sql, arguments: arguments) { values.append($0.int64(0)) }
        return values
    }
}
