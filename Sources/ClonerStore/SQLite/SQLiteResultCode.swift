import CSQLite

/// A SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`),
/// named instead of compared as a bare number.
///
/// Matchable in `catch` the way GRDB's `ResultCode` is: `catch SQLiteResultCode.constraintUnique` catches
/// a `SQLiteError` with exactly that extended code, and a primary code pattern
/// (`catch SQLiteResultCode.constraint`) catches every extended code of its family.
package struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// An extended code: its primary code in the low byte, the refinement above it, as sqlite3.h
    /// defines them (`#define SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT | (8<<8))`) — macros
    /// Swift does not import.
    private init(_ primary: Int32, _ refinement: Int32) { self.rawValue = primary | (refinement << 8) }

    /// The primary code (the low byte), which every extended code refines.
    package var primaryResultCode: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    package var isPrimary: Bool { rawValue == primaryResultCode.rawValue }

    package var description: String { "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))" }

    package static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    package static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    package static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    package static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    package static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    package static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    package static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    package static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    package static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    package static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    package static let done = SQLiteResultCode(rawValue: SQLITE_DONE)

    package static let constraintCheck = SQLiteResultCode(SQLITE_CONSTRAINT, 1)
    package static let constraintForeignKey = SQLiteResultCode(SQLITE_CONSTRAINT, 3)
    package static let constraintNotNull = SQLiteResultCode(SQLITE_CONSTRAINT, 5)
    package static let constraintPrimaryKey = SQLiteResultCode(SQLITE_CONSTRAINT, 6)
    package static let constraintUnique = SQLiteResultCode(SQLITE_CONSTRAINT, 8)

    /// `catch SQLiteResultCode.x`: a primary pattern matches its whole family, an extended one itself.
    package static func ~= (pattern: SQLiteResultCode, error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return pattern ~= error.resultCode
    }

    /// `switch code { case .constraint: … }` with the same family rule.
    package static func ~= (pattern: SQLiteResultCode, code: SQLiteResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }
}
