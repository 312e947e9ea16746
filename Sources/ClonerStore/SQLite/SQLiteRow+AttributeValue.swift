import ClonerModel
import CSQLite
import Foundation

extension SQLiteRow {
    /// A column read straight into the attribute's type: the common pairs of storage class and
    /// type without an intermediate `SQLiteValue`, any other pair (a value written by hand with the
    /// sqlite3 shell) converted as `AttributeValue(sql:type:)` does.
    func attributeValue(_ index: Int32, type: AttributeType) -> AttributeValue {
        switch (sqlite3_column_type(statement.handle, index), type) {
        case (SQLITE_NULL, _): return .null
        case (SQLITE_INTEGER, .integer): return .integer(int64(index))
        case (SQLITE_INTEGER, .date): return .date(millisecondsSince1970: int64(index))
        case (SQLITE_INTEGER, .boolean): return .boolean(int64(index) != 0)
        case (SQLITE_FLOAT, .double): return .double(double(index))
        case (SQLITE_TEXT, .string): return .string(string(index))
        case (SQLITE_TEXT, .json): return .json(string(index))
        case (SQLITE_BLOB, .binary): return .binary(data(index))
        case (SQLITE_TEXT, .uuid):
            // Parsed from SQLite's bytes; text that is not a plain uuid goes the general way.
            if let text = sqlite3_column_text(statement.handle, index),
                let uuid = UUID(hexUTF8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement.handle, index))))
            {
                return .uuid(uuid)
            }
            return AttributeValue(sql: self[index], type: type)
        default: return AttributeValue(sql: self[index], type: type)
        }
    }

    /// A column of a non-binary attribute as the export holds it (`SQLRow.graphValue`): the common pairs of storage
    /// class and type read without a `String` (text copied into `batch`'s bytes), any other pair
    /// as `attributeValue` converts it.
    func graphValue(_ column: Int, type: AttributeType, into batch: GraphRecordBatch) -> GraphRecordBatch.Value {
        let (handle, index) = (statement.handle, Int32(column))
        switch (sqlite3_column_type(handle, index), type) {
        case (SQLITE_NULL, _): return .null
        case (SQLITE_INTEGER, .integer), (SQLITE_INTEGER, .date), (SQLITE_INTEGER, .boolean): return .integer(int64(index))
        case (SQLITE_FLOAT, .double): return .double(double(index))
        case (SQLITE_TEXT, .string), (SQLITE_TEXT, .json):
            let text = UnsafeRawPointer(sqlite3_column_text(handle, index))
            let count = Int(sqlite3_column_bytes(handle, index))
            // ASCII is valid UTF-8 as it is; other text goes through `String`, which mends invalid
            // UTF-8 as a fetch's value would.
            if let text, !UnsafeRawBufferPointer(start: text, count: count).contains(where: { $0 >= 0x80 }) {
                return .bytes(batch.appendBytes(text, count: count))
            }
            var decoded = string(index)
            return .bytes(decoded.withUTF8 { batch.appendBytes(UnsafeRawPointer($0.baseAddress), count: $0.count) })
        case (SQLITE_TEXT, .uuid):
            if let text = sqlite3_column_text(handle, index),
                let uuid = UUID(hexUTF8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
            {
                return .uuid(uuid)
            }
            return .other(attributeValue(index, type: type))
        default:
            let value = attributeValue(index, type: type)
            return value == .null ? .null : .other(value)
        }
    }
}
