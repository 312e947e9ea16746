import CSQLite
import Foundation

/// A prepared statement. Not thread-safe: it belongs to its connection, which belongs to one thread
/// (or serial queue) at a time.
package final class SQLiteStatement {
    let handle: OpaquePointer
    package let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw connection.lastError(code: code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the positional parameters 1...n, after clearing any earlier bindings.
    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to a parameter by its 1-based index.
    package func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let v):
            code = sqlite3_bind_int64(handle, index, v)
        case .double(let v):
            code = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            // Bound with its byte length, never as a C string: a NUL inside the text (JSON's
            // "\u0000") would otherwise cut it short without an error.
            var text = v
            code = text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, cloner_sqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(bytes.count), cloner_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let v):
            code = v.withUnsafeBytes { raw in
                sqlite3_bind_blob64(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(raw.count), cloner_sqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: sql) }
    }

    /// Binds a named parameter (`:name`, `@name` or `$name`); a name the statement lacks is a
    /// programmer error.
    package func bind(_ value: SQLiteValue, named name: String) throws(SQLiteError) {
        let index = sqlite3_bind_parameter_index(handle, name)
        precondition(index > 0, "no parameter \(name) in: \(sql)")
        try bind(value, at: index)
    }

    /// Binds every named parameter of the statement from `values`; a parameter missing from the
    /// dictionary is a programmer error, extra entries are ignored (one dictionary serves a set of
    /// statements).
    package func bind(named values: [String: SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let count = sqlite3_bind_parameter_count(handle)
        guard count > 0 else { return }
        for index in 1...count {
            guard let cName = sqlite3_bind_parameter_name(handle, index) else {
                preconditionFailure("positional parameter \(index) in a statement bound by name: \(sql)")
            }
            let name = String(cString: cName)
            guard let value = values[name] else { preconditionFailure("no value for \(name) in: \(sql)") }
            try bind(value, at: index)
        }
    }

    /// Runs the statement to completion with named parameters; returns the rows changed.
    @discardableResult
    package func execute(named values: [String: SQLiteValue]) throws(SQLiteError) -> Int {
        try bind(named: values)
        while try step() {}
        sqlite3_reset(handle)
        return Int(sqlite3_changes64(sqlite3_db_handle(handle)))
    }

    /// Advances to the next row; false when done.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.lastError(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring rows.
    package func execute(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs the statement and hands each row to `body`.
    package func forEachRow(_ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        let row = SQLiteRow(statement: self)
        while try step() { try body(row) }
    }

    /// The first column of the first row, if any.
    package func scalar(_ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return SQLiteRow(statement: self)[0]
    }

    package var columnCount: Int32 { sqlite3_column_count(handle) }

    package func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }
}

/// A statement belongs to its connection, which belongs to one thread at a time.
@available(*, unavailable, message: "a SQLiteStatement belongs to its connection's thread")
extension SQLiteStatement: Sendable {}
