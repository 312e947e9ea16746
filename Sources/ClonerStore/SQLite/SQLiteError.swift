import CSQLite

/// A failed SQLite call, with the extended result code (e.g. `SQLITE_CONSTRAINT_UNIQUE` = 2067)
/// and the SQL that failed, so a log line says exactly what went wrong where.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { extendedCode & 0xFF }

    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
    public var isUniqueViolation: Bool { extendedCode == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ || extendedCode == 1555 /* PRIMARYKEY */ }
    public var isForeignKeyViolation: Bool { extendedCode == 787 /* SQLITE_CONSTRAINT_FOREIGNKEY */ }
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    public var description: String {
        let name = String(cString: sqlite3_errstr(extendedCode))
        var text = "SQLite error \(extendedCode) (\(name)): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }
}
