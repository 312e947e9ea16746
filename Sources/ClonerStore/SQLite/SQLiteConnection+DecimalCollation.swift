import CSQLite
import ClonerModel

extension SQLiteConnection {
    /// The collation of a decimal column (`TEXT COLLATE cloner_decimal`): orders the canonical
    /// texts of `ExactDecimal` by the numbers they write, so `ORDER BY`, `<`, `=` and an index on
    /// the column compare `9` before `10` and `-2` before `-1` while the text keeps every digit
    /// (docs/architecture.md#decimals). The comparison is `ExactDecimal.compareTexts`, the same
    /// the model layer orders values by.
    static let decimalCollation = "cloner_decimal"

    /// Registers `decimalCollation` on this connection, where it opens and before any statement is
    /// prepared: a schema that names a collation the connection lacks cannot be read. It compares
    /// the bytes SQLite hands it in place, allocating nothing.
    func registerDecimalCollation() throws(SQLiteError) {
        let code = sqlite3_create_collation_v2(
            handle, Self.decimalCollation, SQLITE_UTF8, nil,
            { _, leftCount, left, rightCount, right in
                let a = UnsafeBufferPointer(start: left?.assumingMemoryBound(to: UInt8.self), count: Int(leftCount))
                let b = UnsafeBufferPointer(start: right?.assumingMemoryBound(to: UInt8.self), count: Int(rightCount))
                return Int32(ExactDecimal.compareTexts(a, b))
            }, nil)
        guard code == SQLITE_OK else { throw lastError(code: code, sql: nil) }
    }
}
