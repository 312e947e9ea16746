import CSQLite
import Foundation

/// The current row of a stepping statement. Valid only inside the `forEachRow` callback that
/// produced it: it reads straight from SQLite's buffers without copying the row first.
package struct SQLiteRow {
    let statement: SQLiteStatement

    package var count: Int32 { sqlite3_column_count(statement.handle) }

    package func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement.handle, index) == SQLITE_NULL }

    package func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement.handle, index) }

    package func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

    package func double(_ index: Int32) -> Double { sqlite3_column_double(statement.handle, index) }

    /// The bytes of a text or blob value (0 for NULL), without copying it.
    package func byteCount(_ index: Int32) -> Int { Int(sqlite3_column_bytes(statement.handle, index)) }

    package func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(statement.handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    package func data(_ index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(statement.handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    package subscript(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement.handle, index) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .double(double(index))
        case SQLITE_TEXT: return .text(string(index))
        case SQLITE_BLOB: return .blob(data(index))
        default: return .null
        }
    }
}
