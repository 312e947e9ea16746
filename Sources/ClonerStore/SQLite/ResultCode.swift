import CSQLite

/// A SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`),
/// named instead of compared as a bare number.
///
/// Matchable in `catch` the way GRDB's `ResultCode` is: `catch ResultCode.constraintUnique` catches
/// a `SQLiteError` with exactly that extended code, and a primary code pattern
/// (`catch ResultCode.constraint`) catches every extended code of its family.
package struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// An extended code: its primary code in the low byte, the refinement above it, as sqlite3.h
    /// defines them (`#define SQLITE_CONSTRAINT_UNIQUE (SQLITE_CONSTRAINT | (8<<8))`) — macros
    /// Swift does not import.
    private init(_ primary: Int32, _ refinement: Int32) { self.rawValue = primary | (refinement << 8) }

    /// The primary code (the low byte), which every extended code refines.
    package var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    package var isPrimary: Bool { rawValue == primaryResultCode.rawValue }

    package var description: String { "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))" }

    package static let ok = ResultCode(rawValue: SQLITE_OK)
    package static let error = ResultCode(rawValue: SQLITE_ERROR)
    package static let busy = ResultCode(rawValue: SQLITE_BUSY)
    package static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    package static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    package static let full = ResultCode(rawValue: SQLITE_FULL)
    package static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    package static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    package static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    package static let row = ResultCode(rawValue: SQLITE_ROW)
    package static let done = ResultCode(rawValue: SQLITE_DONE)

    package static let constraintCheck = ResultCode(SQLITE_CONSTRAINT, 1)
    package static let constraintForeignKey = ResultCode(SQLITE_CONSTRAINT, 3)
    package static let constraintNotNull = ResultCode(SQLITE_CONSTRAINT, 5)
    package static let constraintPrimaryKey = ResultCode(SQLITE_CONSTRAINT, 6)
    package static let constraintUnique = ResultCode(SQLITE_CONSTRAINT, 8)

    /// `catch ResultCode.x`: a primary pattern matches its whole family, an extended one itself.
    package static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return pattern ~= error.resultCode
    }

    /// `switch code { case .constraint: … }` with the same family rule.
    package static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }
}
