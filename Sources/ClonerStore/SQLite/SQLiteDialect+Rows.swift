import ClonerModel

/// SQLite's spellings of the row writes and reads written once (`SQLStoreContext+Rows`): rows
/// as `VALUES` tuples of parameters bound one value each, up to SQLite's parameter limit.
extension SQLiteDialect {
    /// Bound parameters per statement: SQLite's historic limit, well under today's 32766, so a
    /// build with the old default takes the same statements.
    static let parameterLimit = 999
    /// Rows per INSERT at most, however few their columns.
    static let rowLimit = 500

    /// SQLite sorts NULL first ascending.
    static func ascendingNullsFirst(_ column: String) -> String { "\(column) ASC" }
    /// SQLite sorts NULL last descending.
    static func descendingNullsLast(_ column: String) -> String { "\(column) DESC" }
    static func isNotDistinct(_ left: String, _ right: String) -> String { "\(left) IS \(right)" }

    static func insertRows(
        into table: String, columns: [String], types: [AttributeType], rowCount: Int, skippingDuplicates: Bool
    ) -> String {
        let head = "INSERT \(skippingDuplicates ? "OR IGNORE " : "")INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return head + Array(repeating: tuple, count: rowCount).joined(separator: ", ")
    }

    /// A `VALUES` list names its columns `column1`…: a select renames them.
    static func parameterRows(_ alias: String, columns: [String], types: [AttributeType], rowCount: Int) -> String {
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let names = columns.enumerated().map { "column\($0 + 1) AS \($1)" }.joined(separator: ", ")
        return "(SELECT \(names) FROM (VALUES " + Array(repeating: tuple, count: rowCount).joined(separator: ", ") + ")) AS \(alias)"
    }

    static func rowsPerInsert(columns: Int) -> Int { max(1, min(rowLimit, parameterLimit / max(1, columns))) }
    static let bytesPerInsert = 16 << 20
    /// One writer at a time: no other transaction can change a row before this one commits.
    static func lockForLink(_ alias: String) -> String { "" }
    static func transactionLock(named name: String) -> String? { nil }
}
