/// The statements of one step of a PostgreSQL clone with what reads their rows, collected before
/// any runs, so that the copier can send them one by one or in one pipeline
/// (`PostgreSQLConnection.pipeline`) from the same description.
struct PostgreSQLStatementBatch {
    enum Entry {
        /// A statement, and what checks or keeps its rows (a check throws to stop the clone).
        case statement(sql: String, values: [PostgreSQLValue], reader: ((PostgreSQLResult) throws -> Void)?)
        /// Work done once the statements before it have run (progress counters).
        case action(() -> Void)
    }

    private(set) var entries: [Entry] = []

    mutating func add(_ sql: String, _ values: [PostgreSQLValue], reader: ((PostgreSQLResult) throws -> Void)? = nil) {
        entries.append(.statement(sql: sql, values: values, reader: reader))
    }

    mutating func afterwards(_ action: @escaping () -> Void) {
        entries.append(.action(action))
    }

    /// The statements alone, in order.
    var statements: [(sql: String, values: [PostgreSQLValue])] {
        entries.compactMap {
            if case .statement(let sql, let values, _) = $0 { return (sql, values) }
            return nil
        }
    }
}
