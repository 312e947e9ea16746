import CLibPQ
import ClonerModel
import Foundation

/// PostgreSQL's hooks of the row writes and reads written once (`SQLStoreContext+Rows`, `+Save`,
/// `+Transfer`): writers side by side, so new ids come from each table's identity sequence; a
/// batch's values bound as one typed array per column.
extension PostgreSQLStoreContext {
    /// From the entity's sequence (`PostgreSQLSchema.idSequence(of:)`), in one statement: never
    /// handed out twice, even to concurrent writers; ascending as SQLite's would be.
    func newIDs(entity: String, after last: Int64?, count: Int) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        try run("SELECT nextval($1::regclass) FROM generate_series(1, $2)", [.text(layout.idSequence(of: entity)), .int8(Int64(count))])
            .forEachRow { ids.append($0.int64(0)) }
        return ids.sorted()
    }

    /// The sequence's and, across an inheritance hierarchy, every one of its tables' highest.
    func highestIssuedID(entity: String) throws -> Int64 {
        let largest = schema.model.entitiesSharingIDs(with: entity).map { "coalesce((SELECT max(\"_id\") FROM \(quoted($0))), 0)" }
        let sql = "SELECT greatest(coalesce(pg_sequence_last_value($1::regclass), 0), \(largest.joined(separator: ", ")))"
        return try scalarInt64(sql, [.text(layout.idSequence(of: entity))]) ?? 0
    }

    /// Moves the sequence up to `id`, never down, as SQLite's `sqlite_sequence` moves: a
    /// hierarchy's tables are moved one by one, each with its own highest. `setval` is not undone
    /// by a rollback: a move that fails after it leaves the sequence ahead, which only skips ids.
    func issueIDs(above id: Int64, entity: String) throws {
        guard id > 0 else { return }
        try run(
            "SELECT setval($1::regclass, greatest($2, coalesce(pg_sequence_last_value($1::regclass), 0)))",
            [.text(layout.idSequence(of: entity)), .int8(id)])
    }

    /// Compared as stored: text by its bytes (Swift's `==` would take "é" and "e\u{301}" as equal).
    func storesSame(_ value: AttributeValue, _ current: AttributeValue) -> Bool {
        switch (value, current) {
        case (.string(let a), .string(let b)), (.json(let a), .json(let b)): return a.utf8.elementsEqual(b.utf8)
        default: return value == current
        }
    }

    static func boundValue(_ value: AttributeValue, entity: String, attribute: String) throws -> PostgreSQLValue {
        try parameter(value, entity: entity, attribute: attribute)
    }

    /// The batch's blobs stored together first (`storeBlobs`), their keys taken in order.
    func storedRows(_ rows: [[AttributeValue]], columns: [(name: String, type: AttributeType?)], entity: String) throws -> [[PostgreSQLValue]] {
        var binaries: [Data] = []
        for row in rows {
            for (index, value) in row.enumerated() where columns[index].type != nil {
                if case .binary(let bytes) = value { binaries.append(bytes) }
            }
        }
        var blobKeys = try storeBlobs(binaries).makeIterator()
        return try rows.map { row in
            try row.enumerated().map { index, value in
                if columns[index].type == nil {
                    if case .integer(let integer) = value { return .int8(integer) }
                    return .null
                }
                if case .binary = value { return .bytea(blobKeys.next()!) }
                return try Self.parameter(value, entity: entity, attribute: columns[index].name)
            }
        }
    }

    /// One array per column, for `unnest`.
    static func insertArguments(_ rows: ArraySlice<[PostgreSQLValue]>, types: [AttributeType]) -> [PostgreSQLValue] {
        types.indices.map { column in .array(element: arrayElement(types[column]), rows.map { $0[column] }) }
    }

    static func approximateBytes(_ value: PostgreSQLValue) -> Int { value.approximateSize }

    func forEachRow(_ sql: String, values: [PostgreSQLValue], _ body: (PostgreSQLRow) throws -> Void) throws {
        try run(sql, values).forEachRow(body)
    }

    /// Through the connection's prepared statements, which are kept by SQL text.
    func forEachPageRow(shape: FetchPageShape, sql: () throws -> String, values: [PostgreSQLValue], _ body: (PostgreSQLRow) throws -> Void) throws {
        try run(try sql(), values).forEachRow(body)
    }

    /// PostgreSQL text cannot hold U+0000: a filter on such a string matches nothing.
    static func filterValue(_ value: AttributeValue, entity: String, attribute: String) throws -> PostgreSQLValue? {
        if case .string(let text) = value, text.utf8.contains(0) { return nil }
        if case .json(let text) = value, text.utf8.contains(0) { return nil }
        return try parameter(value, entity: entity, attribute: attribute)
    }

    /// A sort-key value as a position carries it (the SQLite store's storage classes).
    static func positionValue(_ row: PostgreSQLRow, _ column: Int, _ kind: FetchKeyColumn.Kind) -> FetchRequest.Position.Value {
        if row.isNull(column) { return .null }
        switch kind {
        case .id: return .integer(row.int64(column))
        case .attribute(let type):
            switch type {
            case .integer: return .integer(row.int64(column))
            case .boolean: return .integer(row.bool(column) ? 1 : 0)
            case .date: return .integer(row.timestampMilliseconds(column))
            case .double: return .double(row.double(column))
            case .string, .json: return .text(row.string(column))
            case .uuid: return .text(row.uuid(column).uuidString.lowercased())
            case .binary: return .blob(row.data(column))
            case .decimal: return row.numeric(column).map(FetchRequest.Position.Value.text) ?? .null
            }
        }
    }

    /// A position's value as a parameter of the sort column's type.
    static func cursorValue(_ value: FetchRequest.Position.Value, column: FetchKeyColumn, entity: String) throws -> PostgreSQLValue {
        func refuse() -> StoreError {
            StoreError.invalidValue(entity: entity, property: column.name, reason: "the cursor's value does not fit this sort key")
        }
        switch (column.kind, value) {
        case (_, .null): return .null
        case (.id, .integer(let v)): return .int8(v)
        case (.attribute(.integer), .integer(let v)): return .int8(v)
        case (.attribute(.boolean), .integer(let v)): return .bool(v != 0)
        case (.attribute(.date), .integer(let v)):
            guard timestampRange.contains(v) else { throw refuse() }
            return .timestamptz(millisecondsSince1970: v)
        case (.attribute(.double), .double(let v)): return .float8(v)
        case (.attribute(.double), .integer(let v)): return .float8(Double(v))
        case (.attribute(.string), .text(let v)), (.attribute(.json), .text(let v)):
            guard !v.utf8.contains(0) else { throw refuse() }
            return .text(v)
        case (.attribute(.uuid), .text(let v)):
            guard let uuid = UUID(uuidString: v) else { throw refuse() }
            return .uuid(uuid)
        case (.attribute(.binary), .blob(let v)): return .bytea(v)
        case (.attribute(.decimal), .text(let v)):
            guard let decimal = try? ExactDecimal(parsing: v) else { throw refuse() }
            return .numeric(decimal.text)
        default: throw refuse()
        }
    }

    func forEachRow(_ query: SQLRecordReads.Query, arguments: [SQLArgument], _ body: (PostgreSQLRow) throws -> Void) throws {
        try connection.forEachRow(query.sql, arguments: arguments, body)
    }

    /// In one pipeline, prepared: a record and its related rows in one round trip, while they fit
    /// one (`PostgreSQLConnection.fitInOnePipeline`: a record's and its relationships' statements
    /// with a few hundred ids do). Larger batches go one by one.
    func forEachRow(of queries: [(SQLRecordReads.Query, [SQLArgument])], _ body: (Int, PostgreSQLRow) throws -> Void) throws {
        let statements = queries.map { PostgreSQLConnection.PipelinedStatement($0.0.sql, $0.1.map(PostgreSQLValue.init), isPrepared: true) }
        guard queries.count > 1, PostgreSQLConnection.fitInOnePipeline(statements) else { return try forEachRowInTurn(of: queries, body) }
        for (index, outcome) in try connection.pipeline(statements).enumerated() {
            try outcome.get().forEachRow { try body(index, $0) }
        }
    }

    /// In libpq's buffer (binary text is its UTF-8 bytes), before the text is copied.
    static func textByteCount(_ row: PostgreSQLRow, _ column: Int) -> Int {
        Int(PQgetlength(row.result.handle, row.index, Int32(column)))
    }
}
