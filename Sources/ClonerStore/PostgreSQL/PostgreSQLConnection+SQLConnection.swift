import CLibPQ
import ClonerModel

extension PostgreSQLConnection: SQLConnection {
    typealias Dialect = PostgreSQLDialect

    /// Through the per-connection prepared statements (`cachedQuery`), as every other store statement.
    func perform(_ sql: String, values: [PostgreSQLValue]) throws -> Int {
        try cachedQuery(sql, values).affectedRows
    }

    /// In one pipeline while they fit one (`fitInOnePipeline`).
    func performInOrder(_ statements: [(sql: String, values: [PostgreSQLValue])]) throws -> [Int] {
        let pipelined = statements.map { PipelinedStatement($0.sql, $0.values, isPrepared: true) }
        guard statements.count > 1, Self.fitInOnePipeline(pipelined) else {
            return try statements.map { try perform($0.sql, values: $0.values) }
        }
        return try pipeline(pipelined).map { try $0.get().affectedRows }
    }

    static func value(_ argument: SQLArgument) -> PostgreSQLValue { PostgreSQLValue(argument) }

    func forEachRow(_ sql: String, arguments: [SQLArgument], _ body: (PostgreSQLRow) throws -> Void) throws {
        try cachedQuery(sql, arguments.map(PostgreSQLValue.init)).forEachRow(body)
    }
}

extension PostgreSQLValue {
    /// Integers as `int8`, an id list as one `int8[]`.
    init(_ argument: SQLArgument) {
        switch argument {
        case .null: self = .null
        case .integer(let value): self = .int8(value)
        case .text(let value): self = .text(value)
        case .ids(let ids): self = .int8Array(ids)
        case .bytes(let bytes): self = .bytea(bytes)
        case .timestamp(let date): self = .timestamptz(millisecondsSince1970: SQLArgument.milliseconds(date))
        case .texts(let texts): self = .textArray(texts)
        case .blobKeys(let keys): self = .array(element: .bytea, keys.map(PostgreSQLValue.bytea))
        }
    }
}

extension PostgreSQLRow: SQLRow {
    func attributeValue(_ column: Int, _ type: AttributeType) -> AttributeValue { PostgreSQLStoreContext.attributeValue(self, column, type) }

    /// A binary-format column's bytes as libpq holds them: a bytea's bytes, a text's UTF-8.
    func withBytes(_ column: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        let (handle, column) = (result.handle, Int32(column))
        body(UnsafeRawBufferPointer(start: PQgetvalue(handle, index, column), count: Int(PQgetlength(handle, index, column))))
    }
}
