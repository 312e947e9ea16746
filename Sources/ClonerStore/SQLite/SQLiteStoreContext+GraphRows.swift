import ClonerModel
import Foundation

/// `GraphRowWriter` on SQLite: ids continue the table's sequence (this transaction holds the only
/// writer), and rows go through one cached INSERT per table, stepped per row.
extension SQLiteStoreContext: GraphRowBackend {
    func newIDs(entity: String, after last: Int64?, count: Int) throws -> [Int64] {
        let start: Int64
        if let last {
            start = last + 1
        } else {
            let table = quoted(entity)
            let highest = try connection.scalar(
                """
                SELECT max(coalesce((SELECT max("_id") FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0))
                """, [.text(entity)])
            start = (highest?.int64 ?? 0) + 1
        }
        return Array(start..<start + Int64(count))
    }

    func insertRows(
        table: String, columns: [(name: String, type: AttributeType?)], rows: [[AttributeValue]], entity: String,
        ignoringDuplicates: Bool
    ) throws {
        let sql =
            "INSERT \(ignoringDuplicates ? "OR IGNORE " : "")INTO \(quoted(table)) (" + columns.map { quoted($0.name) }.joined(separator: ", ")
            + ") VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        // Looked up once per batch, not per row (the lookup hashes the whole statement text).
        let statement = try connection.cachedStatement(sql)
        var values: [SQLiteValue] = []
        values.reserveCapacity(columns.count)
        for row in rows {
            values.removeAll(keepingCapacity: true)
            for value in row { values.append(try storedValue(value)) }
            try statement.execute(values)
        }
    }

    func setColumns(table: String, id: Int64, _ values: [(column: String, value: Int64?)]) throws {
        let sql = "UPDATE \(quoted(table)) SET " + values.map { "\(quoted($0.column)) = ?" }.joined(separator: ", ") + " WHERE \"_id\" = ?"
        try connection.execute(sql, values.map { $0.value.map(SQLiteValue.integer) ?? .null } + [.integer(id)])
    }

    func execute(_ sql: String, ids: [Int64]) throws {
        try connection.execute(
            sql.replacingOccurrences(of: " IN IDS", with: " IN (\(SQLiteStoreContext.idsFromArray))"), [SQLiteStoreContext.idArray(ids)])
    }

    func findIDs(entity: EntityDescription, key: [AttributeDescription], values: [[AttributeValue]]) throws -> [(Int, Int64)] {
        guard !values.isEmpty else { return [] }
        let row = "(" + Array(repeating: "?", count: key.count + 1).joined(separator: ", ") + ")"
        let match = key.enumerated().map { "e.\(quoted($1.name)) = v.column\($0 + 2)" }.joined(separator: " AND ")
        let sql =
            "SELECT v.column1, e.\"_id\" FROM (VALUES " + Array(repeating: row, count: values.count).joined(separator: ", ")
            + ") AS v JOIN \(quoted(entity.name)) AS e ON \(match)"
        var parameters: [SQLiteValue] = []
        parameters.reserveCapacity(values.count * (key.count + 1))
        for (index, list) in values.enumerated() {
            parameters.append(.integer(Int64(index)))
            for value in list { parameters.append(value.sqlValue) }
        }
        var found: [(Int, Int64)] = []
        try connection.makeStatement(sql).forEachRow(parameters) { row in
            found.append((Int(row.int64(0)), row.int64(1)))
        }
        return found
    }
}
