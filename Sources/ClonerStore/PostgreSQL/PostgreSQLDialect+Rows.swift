import ClonerModel

/// PostgreSQL's spellings of the row writes and reads written once (`SQLStoreContext+Rows`): a
/// batch of rows is one `INSERT … SELECT * FROM unnest(…)` of one typed array per column, so any
/// number of rows is one statement with one cached plan.
extension PostgreSQLDialect {
    static func ascendingNullsFirst(_ column: String) -> String { "\(column) ASC NULLS FIRST" }
    static func descendingNullsLast(_ column: String) -> String { "\(column) DESC NULLS LAST" }
    static func isNotDistinct(_ left: String, _ right: String) -> String { "\(left) IS NOT DISTINCT FROM \(right)" }

    static func insertRows(
        into table: String, columns: [String], types: [AttributeType], rowCount: Int, skippingDuplicates: Bool
    ) -> String {
        let arrays = types.indices.map { "$\($0 + 1)::\(castType(types[$0]))[]" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT * FROM unnest(\(arrays))"
            + (skippingDuplicates ? " ON CONFLICT DO NOTHING" : "")
    }

    static func parameterRows(_ alias: String, columns: [String], types: [AttributeType], rowCount: Int) -> String {
        let arrays = types.indices.map { "$\($0 + 1)::\(castType(types[$0]))[]" }.joined(separator: ", ")
        return "unnest(\(arrays)) AS \(alias)(\(columns.joined(separator: ", ")))"
    }

    static func rowsPerInsert(columns: Int) -> Int { 5_000 }
    static let bytesPerInsert = 32 << 20
    /// As a save locks the objects it links: no other writer may change or delete them, or move
    /// their lists' ends, before this transaction commits.
    static func lockForLink(_ alias: String) -> String { " FOR NO KEY UPDATE OF \(alias)" }
    static func transactionLock(named name: String) -> String? {
        "SELECT pg_advisory_xact_lock(\(PostgreSQLConnection.advisoryLockKey(name)))"
    }
}
