import CSQLite
import ClonerModel
import Foundation

extension SQLiteConnection: SQLConnection {
    typealias Dialect = SQLiteDialect

    /// Through the prepared-statement cache, as every other store statement.
    func perform(_ sql: String, values: [SQLiteValue]) throws -> Int {
        try execute(sql, values)
        return changes
    }

    static func value(_ argument: SQLArgument) -> SQLiteValue { SQLiteValue(argument) }

    func forEachRow(_ sql: String, arguments: [SQLArgument], _ body: (SQLiteRow) throws -> Void) throws {
        try forEachRow(sql, arguments.map(SQLiteValue.init), body)
    }
}

extension SQLiteValue {
    /// An id list becomes one JSON array text (`SQLiteStoreContext.idArray`), which `json_each` reads.
    init(_ argument: SQLArgument) {
        switch argument {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .text(let value): self = .text(value)
        case .ids(let ids): self = SQLiteStoreContext.idArray(ids)
        case .bytes(let bytes): self = .blob(bytes)
        case .timestamp(let date): self = .integer(SQLArgument.milliseconds(date))
        case .texts(let texts): self = .text(SQLArgument.jsonArray(texts))
        // Keys of one length, end to end: `SQLiteDialect.amongBlobKeys` cuts them apart.
        case .blobKeys(let keys): self = .blob(keys.reduce(into: Data()) { $0.append($1) })
        }
    }
}

extension SQLiteRow: SQLRow {
    func isNull(_ column: Int) -> Bool { isNull(Int32(column)) }
    func int64(_ column: Int) -> Int64 { int64(Int32(column)) }
    func data(_ column: Int) -> Data { data(Int32(column)) }
    func attributeValue(_ column: Int, _ type: AttributeType) -> AttributeValue { attributeValue(Int32(column), type: type) }

    func withBytes(_ column: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        let handle = statement.handle
        body(UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, Int32(column)), count: Int(sqlite3_column_bytes(handle, Int32(column)))))
    }
}
