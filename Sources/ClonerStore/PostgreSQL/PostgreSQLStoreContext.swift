import ClonerModel
import Foundation

/// The store's operations inside one transaction of `PostgreSQLStore.read` or `.write`: the same
/// answers as the SQLite store's context, in PostgreSQL's dialect (`$n` parameters, id lists as
/// one `int8[]` parameter expanded with `unnest`/`ANY`, one prepared statement per statement
/// shape per connection).
///
/// Not `Sendable`: it wraps a pooled connection lent to the calling thread for the duration of
/// the body, and must not leave it.
struct PostgreSQLStoreContext: SQLStoreContext {
    let connection: PostgreSQLConnection
    let layout: PostgreSQLSchema

    init(connection: PostgreSQLConnection, layout: PostgreSQLSchema) {
        self.connection = connection
        self.layout = layout
    }

    var schema: StoreSchema { layout.schema }
    var readStatements: SQLReadStatements { layout.readStatements }
    var model: DataModel { layout.model }

    func entity(_ name: String) -> EntityDescription {
        guard let entity = model.entity(named: name) else { preconditionFailure("unknown entity \(name)") }
        return entity
    }

    /// A list of ids as one parameter, so a batch of any size is one statement with one plan.
    static func idArray<S: Sequence>(_ ids: S) -> PostgreSQLValue where S.Element == Int64 {
        .int8Array(Array(ids))
    }

    /// Runs a statement through the connection's prepared-statement cache. Store SQL is built
    /// from the model, so its shapes are few and fixed per connection.
    @discardableResult
    func run(_ sql: String, _ values: [PostgreSQLValue] = []) throws -> PostgreSQLResult {
        try connection.cachedQuery(sql, values)
    }

    /// The single value of a one-row, one-column statement, nil when it returns no row.
    func scalarInt64(_ sql: String, _ values: [PostgreSQLValue]) throws -> Int64? {
        let result = try run(sql, values)
        guard result.rowCount > 0 else { return nil }
        return result[0].optionalInt64(0)
    }
}

// MARK: - values

extension PostgreSQLStoreContext {
    /// Milliseconds since 1970 that `timestamptz` can hold (4713 BC to 294276 AD): a date outside
    /// is refused up front with the attribute's name, not as an anonymous server error.
    static let timestampRange: Range<Int64> = -210_866_803_200_000..<9_224_318_016_000_000

    /// The parameter for a value of `attribute`. PostgreSQL text cannot hold U+0000, so a string
    /// or JSON text containing it is refused here, naming the attribute — the service's 422 — before
    /// it could reach the server as an unnamed encoding error.
    static func parameter(_ value: AttributeValue, entity: String, attribute: String) throws -> PostgreSQLValue {
        switch value {
        case .null: return .null
        case .string(let v), .json(let v):
            if v.utf8.contains(0) {
                throw StoreError.invalidValue(
                    entity: entity, property: attribute, reason: "contains the character U+0000 (NUL), which this store (PostgreSQL) cannot hold in text")
            }
            return .text(v)
        case .integer(let v): return .int8(v)
        case .double(let v): return .float8(v)
        case .boolean(let v): return .bool(v)
        case .date(let ms):
            guard timestampRange.contains(ms) else {
                throw StoreError.invalidValue(
                    entity: entity, property: attribute, reason: "the date is outside the range this store (PostgreSQL) can hold (4713 BC to 294276 AD)")
            }
            return .timestamptz(millisecondsSince1970: ms)
        case .uuid(let v): return .uuid(v)
        case .binary(let v): return .bytea(v)
        case .decimal(let v): return .numeric(v.text)
        }
    }

    static func arrayElement(_ type: AttributeType) -> PostgreSQLValue.ArrayElement {
        switch type {
        case .string, .json: return .text
        case .integer: return .int8
        case .double: return .float8
        case .boolean: return .bool
        case .date: return .timestamptz
        case .uuid: return .uuid
        case .binary: return .bytea
        case .decimal: return .numeric
        }
    }

    static func attributeValue(_ row: PostgreSQLRow, _ column: Int, _ type: AttributeType) -> AttributeValue {
        if row.isNull(column) { return .null }
        switch type {
        case .string: return .string(row.string(column))
        case .json: return .json(row.string(column))
        case .integer: return .integer(row.int64(column))
        case .double: return .double(row.double(column))
        case .boolean: return .boolean(row.bool(column))
        case .date: return .date(millisecondsSince1970: row.timestampMilliseconds(column))
        case .uuid: return .uuid(row.uuid(column))
        case .binary: return .binary(row.data(column))
        case .decimal: return row.numeric(column).flatMap { try? ExactDecimal(parsing: $0) }.map(AttributeValue.decimal) ?? .null
        }
    }
}
