import CSQLite
import Foundation

/// One SQLite connection. Not thread-safe, and explicitly not `Sendable` (the conformance is
/// marked unavailable below): a connection is used by one thread or serial queue at a time (the
/// pool hands it out exclusively), which is how SQLite's WAL mode gives readers in parallel with
/// one writer.
package final class SQLiteConnection {
    let handle: OpaquePointer
    package let path: String
    private var statementCache: [String: SQLiteStatement] = [:]
    /// Statements whose SQL text is built once elsewhere (`SQLReadStatements`), by slot number.
    private var slotStatements: [SQLiteStatement?] = []
    /// Page queries by shape (`FetchPageShape`); emptied when it grows past
    /// `maximumShapedStatements` (filters on arbitrary attribute sets could otherwise grow it
    /// without bound).
    private var shapedStatements: [FetchPageShape: SQLiteStatement] = [:]
    private static let maximumShapedStatements = 256
    /// `BEGIN …`/`COMMIT` prepared once: `sqlite3_exec` would parse them again per transaction.
    private var beginStatements: [TransactionKind: SQLiteStatement] = [:]
    private var commitStatement: SQLiteStatement?
    /// What the connection's clones keep between transactions.
    let cloneSession = SQLiteCloneSession()
    /// The counter of `_cloner_row_number()` (`registerRowNumberFunction`).
    let rowNumbers = SQLiteRowNumbers()
    /// Which of the pool's generations opened this connection (`StoreConnectionPool`).
    var poolGeneration = 0

    package struct OpenOptions: Sendable {
        package var readOnly: Bool = false
        package var create: Bool = true
        /// How long a statement waits for a lock held by another connection before SQLITE_BUSY.
        package var busyTimeoutMilliseconds: Int32 = 10_000
        package init(readOnly: Bool = false, create: Bool = true, busyTimeoutMilliseconds: Int32 = 10_000) {
            self.readOnly = readOnly
            self.create = create
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        }
    }

    package init(path: String, options: OpenOptions = OpenOptions()) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if options.readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if options.create { flags |= SQLITE_OPEN_CREATE }
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(resultCode: SQLiteResultCode(rawValue: code), message: "\(message) (\(path))")
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
        // Thrown from here, the connection is fully initialized: `deinit` closes the handle.
        try registerRowNumberFunction()
        try registerDecimalCollation()
    }

    deinit {
        statementCache.removeAll()
        slotStatements.removeAll()
        shapedStatements.removeAll()
        beginStatements.removeAll()
        commitStatement = nil
        sqlite3_close_v2(handle)
    }

    func lastError(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        return SQLiteError(resultCode: SQLiteResultCode(rawValue: extended != 0 ? extended : code), message: message, sql: sql)
    }

    /// Runs one or more statements without parameters (DDL, pragmas).
    package func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(resultCode: SQLiteResultCode(rawValue: sqlite3_extended_errcode(handle)), message: message, sql: sql)
        }
    }

    /// Runs one statement with positional parameters.
    package func execute(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) {
        try cachedStatement(sql).execute(values)
    }

    /// A prepared statement kept for the connection's lifetime: the hot paths reuse the same SQL
    /// text, so preparing once saves the parse and plan on every call.
    package func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statementCache[sql] { return statement }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// The statement kept in `slot` if it was prepared from `sql`, else `sql` prepared and kept
    /// there: the read routes' statements, found by array index instead of by hashing their text.
    /// (The text is compared as well, which costs nothing when it is the same string, so two
    /// callers numbering their slots differently get a re-prepare, never a wrong statement.)
    package func preparedStatement(slot: Int, sql: String) throws(SQLiteError) -> SQLiteStatement {
        precondition(slot >= 0, "statement slot \(slot)")
        if slot < slotStatements.count, let statement = slotStatements[slot], statement.sql == sql { return statement }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        if slot >= slotStatements.count { slotStatements.append(contentsOf: repeatElement(nil, count: slot + 1 - slotStatements.count)) }
        slotStatements[slot] = statement
        return statement
    }

    /// The statement of a page query's shape, `sql()` prepared the first time the shape is seen.
    func statement(for shape: FetchPageShape, sql: () throws -> String) throws -> SQLiteStatement {
        if let statement = shapedStatements[shape] { return statement }
        let statement = try SQLiteStatement(connection: self, sql: try sql())
        if shapedStatements.count >= SQLiteConnection.maximumShapedStatements { shapedStatements.removeAll() }
        shapedStatements[shape] = statement
        return statement
    }

    /// A statement prepared for one use (dynamic SQL that would only bloat the cache).
    package func makeStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try cachedStatement(sql).scalar(values)
    }

    package func forEachRow(_ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        try cachedStatement(sql).forEachRow(values, body)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at BEGIN, so a read-then-write transaction cannot fail half-way
        /// with SQLITE_BUSY when another writer got in between.
        case immediate = "IMMEDIATE"
    }

    private func begin(_ kind: TransactionKind) throws(SQLiteError) {
        if let statement = beginStatements[kind] { return try statement.execute() }
        let statement = try SQLiteStatement(connection: self, sql: "BEGIN \(kind.rawValue)")
        beginStatements[kind] = statement
        try statement.execute()
    }

    private func commit() throws(SQLiteError) {
        if let statement = commitStatement { return try statement.execute() }
        let statement = try SQLiteStatement(connection: self, sql: "COMMIT")
        commitStatement = statement
        try statement.execute()
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        precondition(!isInTransaction, "nested transaction on \(path)")
        try begin(kind)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}

/// A connection belongs to one thread or serial queue at a time (SQLite is opened NOMUTEX); the
/// compiler refuses to send one across isolation domains.
@available(*, unavailable, message: "a SQLiteConnection is used by one thread at a time; borrow one from the pool instead")
extension SQLiteConnection: Sendable {}
