import ClonerModel
import Foundation

/// The SQLite backend's `StoreContext`: the store's operations as SQL on one connection, inside one
/// transaction of `IncrementalStore.read` or `.write`. Not `Sendable`: the connection belongs to
/// the calling thread for the duration of the body.
struct SQLiteStoreContext: SQLStoreContext {
    let connection: SQLiteConnection
    let schema: StoreSchema
    let readStatements: SQLReadStatements

    /// `readStatements` is the backend's, built once; without one (a context made outside the backend),
    /// it is built here.
    init(connection: SQLiteConnection, schema: StoreSchema, readStatements: SQLReadStatements? = nil) {
        self.connection = connection
        self.schema = schema
        self.readStatements = readStatements ?? SQLReadStatements(schema: schema, dialect: SQLiteDialect.self)
    }

    func entity(_ name: String) -> EntityDescription {
        guard let entity = model.entity(named: name) else { preconditionFailure("unknown entity \(name)") }
        return entity
    }

    /// A JSON array of ids, bound as one parameter and expanded with `json_each`, so a batch of any
    /// size is one statement with one cached plan.
    static func idArray<S: Sequence>(_ ids: S) -> SQLiteValue where S.Element == Int64 {
        // Digits written into one byte buffer: no String per id.
        var text: [UInt8] = [UInt8(ascii: "[")]
        text.reserveCapacity(ids.underestimatedCount * 8 + 2)
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        for id in ids {
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            if id < 0 { text.append(UInt8(ascii: "-")) }
            var magnitude = id.magnitude
            digits.removeAll(keepingCapacity: true)
            repeat {
                digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            text.append(contentsOf: digits.reversed())
        }
        text.append(UInt8(ascii: "]"))
        return .text(String(decoding: text, as: UTF8.self))
    }

    static let idsFromArray = "SELECT value FROM json_each(?)"

    /// Maps SQLite's errors to what they mean in the model; any other SQLite error becomes
    /// `StoreError.database` with its code, message and SQL.
    ///
    /// A unique violation is recognised by its result code. Which columns it concerns is only in
    /// SQLite's message ("UNIQUE constraint failed: Table.a, Table.b" — the index name is not
    /// reported), so that part is read from the text: one column is a `unique` attribute, more
    /// than one a `uniqueTogether` group.
    static func translate(_ error: any Error, schema: StoreSchema) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        if error.isUniqueViolation, let range = error.message.range(of: "failed: ") {
            let columns = error.message[range.upperBound...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1).map(String.init)
            }
            if columns.count == 1, columns[0].count == 2 { return StoreError.uniqueViolation(entity: columns[0][0], attribute: columns[0][1]) }
            if columns.count > 1, columns.allSatisfy({ $0.count == 2 && $0[0] == columns[0][0] }) {
                return StoreError.uniqueTogetherViolation(entity: columns[0][0], attributes: columns.map { $0[1] })
            }
        }
        return StoreError.database(error.failure)
    }
}

extension StoreContext {
    /// The SQLite connection under a SQLite context, for tests and tools that check the file
    /// itself (package access: never part of the public API). Calling it on another backend's
    /// context is a programmer error.
    package var sqliteConnection: SQLiteConnection {
        guard let context = self as? SQLiteStoreContext else { preconditionFailure("not a SQLite store context: \(type(of: self))") }
        return context.connection
    }
}
