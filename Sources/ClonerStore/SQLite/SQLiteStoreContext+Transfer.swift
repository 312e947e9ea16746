import ClonerModel
import Foundation

/// A whole-store move on SQLite (see `StoreTransferReader`): the shared statements stepped row by
/// row, multi-row `INSERT … VALUES` with explicit `_id`s, and `sqlite_sequence` for the ids an
/// AUTOINCREMENT table issues next.
extension SQLiteStoreContext: TransferConnection {
    /// Bound parameters per statement: SQLite's historic limit, well under today's 32766, so a
    /// build with the old default takes the same statements.
    static let transferParameterLimit = 999
    /// Rows per INSERT at most, and the bytes of values one statement carries at most.
    static let transferRowLimit = 500
    static let transferByteLimit = 16 << 20

    var transferSQL: TransferSQL { TransferSQL(dialect: .sqlite) }

    func transferRows(_ sql: String, _ parameters: [AttributeValue], types: [AttributeType], _ body: ([AttributeValue]) throws -> Void) throws {
        var values = [AttributeValue](repeating: .null, count: types.count)
        try connection.forEachRow(sql, parameters.map(\.sqlValue)) { row in
            for index in types.indices { values[index] = row.attributeValue(Int32(index), type: types[index]) }
            try body(values)
        }
    }

    func transferInsert(table: String, columns: [TransferColumn], rows: [[AttributeValue]]) throws {
        let perStatement = max(1, min(Self.transferRowLimit, Self.transferParameterLimit / columns.count))
        let head = "INSERT INTO \(quoted(table)) (\(columns.map { quoted($0.name) }.joined(separator: ", "))) VALUES "
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var start = 0
        while start < rows.count {
            var end = start
            var bytes = 0
            while end < rows.count, end - start < perStatement, end == start || bytes < Self.transferByteLimit {
                for value in rows[end] { if case .binary(let data) = value { bytes += data.count } }
                end += 1
            }
            let count = end - start
            let statement = try connection.cachedStatement(head + Array(repeating: tuple, count: count).joined(separator: ", "))
            var values: [SQLiteValue] = []
            values.reserveCapacity(count * columns.count)
            for row in rows[start..<end] {
                precondition(row.count == columns.count, "a row of \(row.count) values for \(columns.count) columns of \(table)")
                values.append(contentsOf: row.map(\.sqlValue))
            }
            try statement.execute(values)
            start = end
        }
    }

    func highestIssuedID(entity: String) throws -> Int64 {
        let sql = """
            SELECT max(coalesce((SELECT "seq" FROM sqlite_sequence WHERE "name" = ?1), 0), \
            coalesce((SELECT max("_id") FROM \(quoted(entity))), 0))
            """
        return try connection.scalar(sql, [.text(entity)])?.int64 ?? 0
    }

    /// SQLite moves an AUTOINCREMENT table's sequence past every `_id` inserted explicitly; this
    /// also carries ids the source issued to rows deleted since.
    func issueIDs(above id: Int64, entity: String) throws {
        guard id > 0 else { return }
        try connection.execute("UPDATE sqlite_sequence SET \"seq\" = ?2 WHERE \"name\" = ?1 AND \"seq\" < ?2", [.text(entity), .integer(id)])
        try connection.execute(
            "INSERT INTO sqlite_sequence (\"name\", \"seq\") SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE \"name\" = ?1)",
            [.text(entity), .integer(id)])
    }
}
