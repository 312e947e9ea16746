import ClonerModel
import Foundation

/// SQLite's hooks of the row writes and reads written once (`SQLStoreContext+Rows`, `+Save`,
/// `+Transfer`): one writer at a time, so new ids continue the table's highest and nothing is
/// locked; values bound one parameter each.
extension SQLiteStoreContext {
    /// This transaction holds the only writer: the ids after the table's highest (or its
    /// sequence's, when rows at the end were deleted) are no one else's.
    func newIDs(entity: String, after last: Int64?, count: Int) throws -> [Int64] {
        let start = try last.map { $0 + 1 } ?? highestIssuedID(entity: entity) + 1
        return Array(start..<start + Int64(count))
    }

    /// Across its inheritance hierarchy, whose entities share one `_id` space: the highest any of
    /// their tables issued (`SQLiteStoreContext.highestIssuedIDQuery`).
    func highestIssuedID(entity: String) throws -> Int64 {
        let tables = schema.model.entitiesSharingIDs(with: entity)
        guard tables.count > 1 else {
            let sql = """
                SELECT max(coalesce((SELECT "seq" FROM sqlite_sequence WHERE "name" = ?1), 0), \
                coalesce((SELECT max("_id") FROM \(quoted(entity))), 0))
                """
            return try connection.scalar(sql, [.text(entity)])?.int64 ?? 0
        }
        return try connection.scalar("SELECT " + Self.highestIssuedIDQuery(tables: tables), [])?.int64 ?? 0
    }

    /// The highest `_id` the tables of one `_id` space issued, as an expression: their
    /// `sqlite_sequence` rows (ids of rows deleted since) and their largest rows.
    static func highestIssuedIDQuery(tables: [String]) -> String {
        let names = tables.map { "'" + $0 + "'" }.joined(separator: ", ")
        let largest = tables.map { "coalesce((SELECT max(\"_id\") FROM \(quoted($0))), 0)" }
        return "max(coalesce((SELECT max(\"seq\") FROM sqlite_sequence WHERE \"name\" IN (\(names))), 0), "
            + largest.joined(separator: ", ") + ")"
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

    /// One writer at a time: no other transaction can change what a save reads.
    func lockRows(of changes: ChangeSet) throws {}

    /// Compared as stored: text by its bytes (Swift's `==` would take "é" and "e\u{301}" as equal).
    func storesSame(_ value: AttributeValue, _ current: AttributeValue) -> Bool {
        switch (value.sqlValue, current.sqlValue) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    /// SQLite holds every value it is given: the names are for the backends that refuse some.
    static func boundValue(_ value: AttributeValue, entity: String, attribute: String) throws -> SQLiteValue { value.sqlValue }

    func storedRows(_ rows: [[AttributeValue]], columns: [(name: String, type: AttributeType?)], entity: String) throws -> [[SQLiteValue]] {
        try rows.map { row in try row.map { try storedValue($0) } }
    }

    /// Row after row, one parameter per value, as the `VALUES` tuples name them.
    static func insertArguments(_ rows: ArraySlice<[SQLiteValue]>, types: [AttributeType]) -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        values.reserveCapacity(rows.count * types.count)
        for row in rows { values.append(contentsOf: row) }
        return values
    }

    static func approximateBytes(_ value: SQLiteValue) -> Int {
        switch value {
        case .text(let v): return v.utf8.count
        case .blob(let v): return v.count
        default: return 8
        }
    }

    func forEachRow(_ sql: String, values: [SQLiteValue], _ body: (SQLiteRow) throws -> Void) throws {
        try connection.forEachRow(sql, values, body)
    }
}

extension SQLiteStoreContext {
    /// Kept by shape on the connection (`SQLiteConnection.statement(for:sql:)`): the text is built
    /// the first time a shape is seen, not per request.
    func forEachPageRow(shape: FetchPageShape, sql: () throws -> String, values: [SQLiteValue], _ body: (SQLiteRow) throws -> Void) throws {
        try connection.statement(for: shape, sql: sql).forEachRow(values, body)
    }

    /// SQLite can hold any value: something stored may equal every filter.
    static func filterValue(_ value: AttributeValue, entity: String, attribute: String) throws -> SQLiteValue? { value.sqlValue }

    /// Bound as SQLite stores it, whatever the column: SQLite compares across storage classes.
    static func cursorValue(_ value: FetchRequest.Position.Value, column: FetchKeyColumn, entity: String) throws -> SQLiteValue {
        SQLiteValue(value)
    }

    static func positionValue(_ row: SQLiteRow, _ column: Int, _ kind: FetchKeyColumn.Kind) -> FetchRequest.Position.Value {
        row[Int32(column)].positionValue
    }
}

extension SQLiteStoreContext {
    /// Prepared once per connection, kept under the query's slot.
    func forEachRow(_ query: SQLRecordReads.Query, arguments: [SQLArgument], _ body: (SQLiteRow) throws -> Void) throws {
        try connection.preparedStatement(slot: query.slot, sql: query.sql).forEachRow(arguments.map(SQLiteValue.init), body)
    }

    /// In SQLite's buffer, before the text is copied.
    static func textByteCount(_ row: SQLiteRow, _ column: Int) -> Int { row.byteCount(Int32(column)) }
}
