extension PostgreSQLError {
    /// A SQLSTATE: five characters, the first two naming the class (PostgreSQL Appendix A).
    /// Typed like GRDB's `ResultCode` so callers compare against named constants.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String

        package init(rawValue: String) { self.rawValue = rawValue }

        /// The class: "23" integrity constraint violation, "40" transaction rollback, "08" connection.
        package var errorClass: String { String(rawValue.prefix(2)) }

        // Class 08 — connection exception
        package static let connectionException = Code(rawValue: "08000")
        package static let connectionDoesNotExist = Code(rawValue: "08003")
        package static let connectionFailure = Code(rawValue: "08006")
        package static let unableToEstablishConnection = Code(rawValue: "08001")
        // Class 22 — data exception
        package static let stringDataRightTruncation = Code(rawValue: "22001")
        package static let numericValueOutOfRange = Code(rawValue: "22003")
        package static let datetimeFieldOverflow = Code(rawValue: "22008")
        package static let characterNotInRepertoire = Code(rawValue: "22021")
        package static let invalidTextRepresentation = Code(rawValue: "22P02")
        package static let invalidBinaryRepresentation = Code(rawValue: "22P03")
        // Class 23 — integrity constraint violation
        package static let notNullViolation = Code(rawValue: "23502")
        package static let foreignKeyViolation = Code(rawValue: "23503")
        package static let uniqueViolation = Code(rawValue: "23505")
        package static let checkViolation = Code(rawValue: "23514")
        package static let exclusionViolation = Code(rawValue: "23P01")
        // Class 25 — invalid transaction state
        package static let activeSQLTransaction = Code(rawValue: "25001")
        package static let inFailedSQLTransaction = Code(rawValue: "25P02")
        /// A write sent to a node in recovery (a standby, or a primary being demoted).
        package static let readOnlySQLTransaction = Code(rawValue: "25006")
        // Class 26 — invalid SQL statement name (a prepared statement the server no longer has)
        package static let invalidSQLStatementName = Code(rawValue: "26000")
        // Class 3D — invalid catalog name (no such database)
        package static let invalidCatalogName = Code(rawValue: "3D000")
        // Class 40 — transaction rollback
        package static let serializationFailure = Code(rawValue: "40001")
        package static let deadlockDetected = Code(rawValue: "40P01")
        // Class 42 — syntax error or access rule violation
        package static let syntaxError = Code(rawValue: "42601")
        package static let undefinedColumn = Code(rawValue: "42703")
        package static let undefinedTable = Code(rawValue: "42P01")
        package static let duplicateTable = Code(rawValue: "42P07")
        package static let duplicateColumn = Code(rawValue: "42701")
        // Class 53 — insufficient resources
        package static let tooManyConnections = Code(rawValue: "53300")
        // Class 55 — object not in prerequisite state
        package static let lockNotAvailable = Code(rawValue: "55P03")
        // Class 57 — operator intervention
        package static let queryCanceled = Code(rawValue: "57014")
        package static let adminShutdown = Code(rawValue: "57P01")
        package static let crashShutdown = Code(rawValue: "57P02")
        package static let cannotConnectNow = Code(rawValue: "57P03")
        // Cloner's own, raised by its statements (a class no PostgreSQL error uses)
        /// A write refused before its COMMIT: no synchronous standby would have it
        /// (`PostgreSQLConnection.synchronousStandbyGuard`).
        package static let noSynchronousStandby = Code(rawValue: "CL001")
        /// Not raised by the server: a COMMIT whose wait for its synchronous standby was cancelled
        /// (`PostgreSQLNotices`), kept by the primary alone.
        package static let synchronousWaitCancelled = Code(rawValue: "CL002")

        package var description: String { rawValue }
    }
}
