import CSQLite

/// A failed SQLite call, with its extended result code and the SQL that failed, so a log line says
/// exactly what went wrong where. Package access: the store's public API wraps it in
/// `StoreError.database(DatabaseFailure)`.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`).
    package let resultCode: SQLiteResultCode
    package let message: String
    package let sql: String?

    package init(resultCode: SQLiteResultCode, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
    }

    package var isConstraintViolation: Bool { SQLiteResultCode.constraint ~= resultCode }
    /// A UNIQUE index or a primary key would hold the same value twice.
    package var isUniqueViolation: Bool { resultCode == .constraintUnique || resultCode == .constraintPrimaryKey }
    package var isForeignKeyViolation: Bool { resultCode == .constraintForeignKey }
    package var isBusy: Bool { SQLiteResultCode.busy ~= resultCode || SQLiteResultCode.locked ~= resultCode }

    package var description: String {
        var text = "SQLite error \(resultCode): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    /// The backend-neutral form the store's public errors carry.
    package var failure: DatabaseFailure {
        DatabaseFailure(backend: "SQLite", code: String(resultCode.rawValue), message: message, sql: sql, isBusy: isBusy)
    }
}
