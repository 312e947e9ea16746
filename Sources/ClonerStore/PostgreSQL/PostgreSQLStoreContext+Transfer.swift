import ClonerModel
import Foundation

/// A whole-store move on PostgreSQL (see `StoreTransferReader`): the shared statements, one
/// multi-row `INSERT … SELECT * FROM unnest(…)` per batch (one array parameter per column, so a
/// batch is one round trip with one cached plan), and each table's identity sequence.
extension PostgreSQLStoreContext: TransferConnection {
    var transferSQL: TransferSQL { TransferSQL(dialect: .postgreSQL) }

    func transferRows(_ sql: String, _ parameters: [AttributeValue], types: [AttributeType], _ body: ([AttributeValue]) throws -> Void) throws {
        let result = try run(sql, try parameters.map { try Self.parameter($0, entity: "", attribute: "") })
        var values = [AttributeValue](repeating: .null, count: types.count)
        try result.forEachRow { row in
            for index in types.indices { values[index] = Self.attributeValue(row, index, types[index]) }
            try body(values)
        }
    }

    func transferInsert(table: String, columns: [TransferColumn], rows: [[AttributeValue]]) throws {
        let elements = columns.map { Self.arrayElement($0.type) }
        let sql =
            "INSERT INTO \(quoted(table)) (\(columns.map { quoted($0.name) }.joined(separator: ", "))) SELECT * FROM unnest("
            + elements.indices.map { "$\($0 + 1)::\(Self.arrayTypeName(elements[$0]))" }.joined(separator: ", ") + ")"
        var start = 0
        while start < rows.count {
            var arrays = [[PostgreSQLValue]](repeating: [], count: columns.count)
            var end = start
            var bytes = 0
            while end < rows.count, end - start < Self.insertBatchRows, end == start || bytes < Self.insertBatchBytes {
                let row = rows[end]
                precondition(row.count == columns.count, "a row of \(row.count) values for \(columns.count) columns of \(table)")
                for (index, value) in row.enumerated() {
                    if case .binary(let data) = value { bytes += data.count }
                    // Named for the message when PostgreSQL cannot hold the value (a NUL in text,
                    // a date out of its range) — the row's `_id` or key first.
                    arrays[index].append(try Self.parameter(value, entity: Self.rowName(table, columns, row), attribute: columns[index].name))
                }
                end += 1
            }
            try run(sql, arrays.indices.map { PostgreSQLValue.array(element: elements[$0], arrays[$0]) })
            start = end
        }
    }

    /// "Note 42", or "_rel_Memo_tags (3, 7)": the row a refused value belongs to, by its key.
    private static func rowName(_ table: String, _ columns: [TransferColumn], _ row: [AttributeValue]) -> String {
        let key = row.prefix(columns.first?.name == "_id" ? 1 : 2).map { value -> String in
            if case .integer(let number) = value { return String(number) }
            return "?"
        }
        return key.count == 1 ? "\(table) \(key[0])" : "\(table) (\(key.joined(separator: ", ")))"
    }

    private static func arrayTypeName(_ element: PostgreSQLValue.ArrayElement) -> String {
        switch element {
        case .int8: return "int8[]"
        case .float8: return "float8[]"
        case .bool: return "bool[]"
        case .text: return "text[]"
        case .bytea: return "bytea[]"
        case .timestamptz: return "timestamptz[]"
        case .uuid: return "uuid[]"
        }
    }

    func highestIssuedID(entity: String) throws -> Int64 {
        let sql = """
            SELECT greatest(coalesce(pg_sequence_last_value(pg_get_serial_sequence($1, '_id')::regclass), 0), \
            coalesce((SELECT max("_id") FROM \(quoted(entity))), 0))
            """
        return try scalarInt64(sql, [.text(quoted(entity))]) ?? 0
    }

    /// `setval` is not undone by a rollback: a move that fails after it leaves the sequence
    /// ahead, which only skips ids.
    func issueIDs(above id: Int64, entity: String) throws {
        guard id > 0 else { return }
        try run("SELECT setval(pg_get_serial_sequence($1, '_id'), $2)", [.text(quoted(entity)), .int8(id)])
    }
}
