import CLibPQ
import Foundation

/// One PostgreSQL session through libpq's blocking C API.
///
/// Thread-safety: like `SQLiteConnection`, a connection is used by one thread or serial queue at a
/// time (libpq allows a `PGconn` on any thread, never on two at once), so it is deliberately not
/// `Sendable`; the pool (`StoreConnectionPool`) hands each one out exclusively and is the `Sendable`
/// way to share connections.
///
/// Statements use the extended protocol with binary parameters and binary results
/// (`PostgreSQLValue`, `PostgreSQLRow`). A lost connection (server restart, `pg_terminate_backend`,
/// network) is reported as a `.connection` error, never a crash, and is re-opened by the next call
/// made outside a transaction — never inside one, where silently continuing in autocommit on a new
/// session would break the transaction's atomicity.
package final class PostgreSQLConnection {
    let handle: OpaquePointer
    /// The URI with its password replaced by `***`: the only form errors and logs ever show.
    package let redactedURI: String
    /// Spellings of the URI's password, scrubbed from every message libpq builds.
    private let secrets: [String]
    /// Prepared statement names by SQL text and parameter types; cleared when the session is
    /// re-opened, since prepared statements live in the server session.
    var preparedStatements: [PreparedStatementKey: String] = [:]
    var preparedStatementCounter = 0
    /// Whether the session was idle (outside a transaction block) after the last command: only
    /// then may a lost session be re-opened transparently.
    var wasIdleAfterLastCommand = true
    /// Which server session this is: stepped each time the session is re-opened, so that what
    /// a caller keeps about the server session (its temporary tables, the rows in them) can tell
    /// it is gone.
    package private(set) var serverSession = 0
    /// Statements sent after the last COMMIT whose results have not been read: the caller had its
    /// transaction's answer without waiting for them (`PostgreSQLCommitParticipant`). Read, with
    /// `ifFailed` run for each that failed, before the session's next command or its check before
    /// it is lent (`settleAfterCommit`).
    var unsettledAfterCommit: [AfterCommitStatement] = []
    /// What the session's notices said (a COMMIT's cancelled wait for its synchronous standby).
    let notices = PostgreSQLNotices()
    /// What the clones on this connection keep between transactions. The connection only holds
    /// it: the clone's session lives as long as the connection it borrows, and nothing here reads
    /// it.
    let cloneSession = PostgreSQLCloneSession()
    /// Shared with the cancel requests taken from this session: none goes out during a COMMIT.
    let cancelGate = PostgreSQLCancelGate()
    /// Set while `transaction(_:readOnly:participant:_:)` runs its body.
    var isInTransactionBlock = false
    /// The open transaction's BEGIN while it has not been sent: it goes out with the
    /// transaction's first command, ahead of it in its pipeline (`pipeline`).
    var pendingBegin: [PipelinedStatement] = []
    /// Writes inside the open transaction whose answers no one waits for, not yet sent: they go
    /// out after the pending BEGIN, ahead of the next command (at the latest the COMMIT), in its
    /// round trip (`performBeforeNextCommand`).
    var pendingWrites: [PipelinedStatement] = []
    /// Commands sent to the server since the session opened (each `execute`, `query` and
    /// `cachedQuery` once), read by `countingCommands` for tests that prove a bulk operation's
    /// round trips do not grow with its size.
    package internal(set) var commandsSent = 0
    /// Times the session sent something and waited for the answer: a pipeline counts once however
    /// many statements it carries (`countingRoundTrips`), where `commandsSent` counts each.
    package internal(set) var roundTrips = 0
    /// The SQLSTATE of the last error the server sent, kept to tell at check-in a session whose
    /// node is shutting down or became a standby (`hasLostItsNode`); cleared when re-opened.
    var lastServerErrorCode: PostgreSQLError.Code?
    /// Set when a pipeline could not be finished: the session cannot be trusted with another
    /// command, whatever libpq's status says, until it is re-opened.
    var isBroken = false
    /// Which of the pool's generations opened this session: a node lost ends every session of the
    /// generations before (`StoreConnectionPool`).
    var poolGeneration = 0

    struct PreparedStatementKey: Hashable {
        let sql: String
        let types: [Oid]
    }

    /// Opens a session. `uri` is in libpq's format (`postgresql://user@/db?host=/socket/dir&port=5432`,
    /// or keyword/value); `connectTimeoutSeconds` applies unless the URI sets `connect_timeout`.
    /// The client encoding is forced to UTF8, which every text reader and writer here assumes.
    package init(uri: String, connectTimeoutSeconds: Int = 10) throws(PostgreSQLError) {
        redactedURI = PostgreSQLURI.redacted(uri)
        secrets = PostgreSQLURI.secrets(in: uri)
        // With expand_dbname, the URI in `dbname` expands in place: keywords before it are
        // defaults the URI may override, keywords after it override the URI (libpq §34.1,
        // PQconnectdbParams).
        let keywords = ["connect_timeout", "fallback_application_name", "dbname", "client_encoding"]
        let values = [String(connectTimeoutSeconds), "cloner", uri, "UTF8"]
        let opened = withCStringArrays(keywords, values) { keywords, values in
            PQconnectdbParams(keywords, values, 1)
        }
        guard let opened else {
            throw PostgreSQLError(
                kind: .connection, code: .unableToEstablishConnection,
                message: "libpq could not allocate a connection", connection: redactedURI)
        }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = PostgreSQLURI.scrub(Self.trimmed(PQerrorMessage(opened)), secrets: secrets)
            PQfinish(opened)
            throw PostgreSQLError(
                kind: .connection, code: .unableToEstablishConnection,
                message: message, connection: redactedURI)
        }
        handle = opened
        // libpq prints NOTICEs ("relation already exists, skipping") to stderr by default, which
        // would interleave with the JSON log lines; the one the store acts on is kept.
        notices.receive(on: handle)
    }

    deinit { PQfinish(handle) }

    /// The server process serving this session (`pg_backend_pid()`), for logs and for tests that
    /// terminate it.
    package var backendPID: Int32 { PQbackendPID(handle) }

    /// Whether the session is open and idle outside a transaction, checked without a round trip.
    ///
    /// A session the server closed while idle (`pg_terminate_backend`, restart) has its FATAL
    /// message and then end-of-file waiting in the socket. `PQconsumeInput` reads without blocking
    /// but stops after the bytes it got, and `PQisBusy` parses them (an error while idle goes to
    /// the notice processor); the second read then meets end-of-file and turns the status BAD.
    /// Left unread, that FATAL message would instead be taken as the next query's answer.
    package var isHealthy: Bool {
        guard !isBroken else { return false }
        settleAfterCommit()
        for _ in 0..<2 {
            guard PQstatus(handle) == CONNECTION_OK, PQconsumeInput(handle) == 1 else { return false }
            _ = PQisBusy(handle)
        }
        return PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the node behind this session can no longer take its writes: the session is lost,
    /// or the server said it is shutting down, starting, or in recovery. Its sibling sessions in
    /// the pool reach the same node, so they go with it.
    var hasLostItsNode: Bool {
        if isBroken { return true }
        guard isConnected, let code = lastServerErrorCode else { return !isConnected }
        return [.adminShutdown, .crashShutdown, .cannotConnectNow, .readOnlySQLTransaction].contains(code)
    }

    /// Why `hasLostItsNode`, for the log line the pool writes.
    var lossReason: String {
        guard isConnected else { return "the session was lost: \(lastErrorMessage())" }
        return "the server answered SQLSTATE \(lastServerErrorCode?.rawValue ?? "?"): \(lastErrorMessage())"
    }

    /// The host and port this session reached: with a multi-host URI, which node is the primary.
    package var node: String {
        let host = PQhost(handle).map { String(cString: $0) } ?? "?"
        let port = PQport(handle).map { String(cString: $0) } ?? "?"
        return host.hasPrefix("/") ? "\(host) (socket), port \(port)" : "\(host):\(port)"
    }

    /// Whether a transaction block is open on the server (including a failed one awaiting ROLLBACK).
    package var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Re-opens the session with the same parameters (`PQreset`). Prepared statements and session
    /// state (advisory locks, SET values) are gone afterwards.
    package func reopen() throws(PostgreSQLError) {
        // Whatever they did went with the session.
        unsettledAfterCommit.removeAll()
        preparedStatements.removeAll()
        lastServerErrorCode = nil
        isBroken = false
        serverSession += 1
        PQreset(handle)
        wasIdleAfterLastCommand = true
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgreSQLError(
                kind: .connection, code: .unableToEstablishConnection,
                message: lastErrorMessage(), connection: redactedURI)
        }
    }

    // MARK: - statements

    /// Runs one or more statements without parameters through the simple protocol (DDL, SET,
    /// BEGIN). Returns nothing: rows of the simple protocol come in text format, which the row
    /// readers do not decode — use `query` for rows.
    package func execute(_ sql: String) throws(PostgreSQLError) {
        // Pending writes carry parameters, which the simple protocol cannot: they go first on their own.
        try sendPendingWrites()
        try prepareForCommand(sql)
        // The simple protocol runs a string of statements in order: a pending BEGIN goes first.
        let begin = pendingBegin.map { $0.sql + "; " }.joined()
        pendingBegin = []
        let result = PQexec(handle, begin + sql)
        _ = try check(result, sql: sql)
    }

    /// Runs one statement with positional parameters (`$1`, `$2`…) without keeping a prepared
    /// statement: for dynamic SQL that would only bloat the cache.
    @discardableResult
    package func query(_ sql: String, _ values: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        try pipeline([PipelinedStatement(sql, values, isPrepared: false)])[0].get()
    }

    /// Runs one statement through a prepared statement kept for the session's lifetime, prepared
    /// on first use and then only executed: the hot paths reuse the same SQL, so parsing and
    /// planning happen once per connection.
    ///
    /// The cache key is the SQL and the parameter types (a NULL leaves its type to the server), so
    /// the same text called with other types gets its own statement rather than a type error.
    /// List columns explicitly: a cached `SELECT *` fails with 0A000 ("cached plan must not change
    /// result type") once a migration adds a column.
    @discardableResult
    package func cachedQuery(_ sql: String, _ values: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        try pipeline([PipelinedStatement(sql, values, isPrepared: true)])[0].get()
    }

    /// The number of statements in the prepared-statement cache (for tests and metrics).
    package var cachedStatementCount: Int { preparedStatements.count }

    // MARK: - errors

    /// Before each command: re-opens a session lost while idle (outside any transaction), and
    /// refuses to run on a session lost inside a transaction; counts the command and, where the
    /// caller waits for its answer, the round trip.
    func prepareForCommand(_ sql: String, waitsForAnswer: Bool = true) throws(PostgreSQLError) {
        settleAfterCommit()
        if waitsForAnswer {
            commandsSent += 1
            roundTrips += 1
        }
        guard PQstatus(handle) != CONNECTION_OK || isBroken else { return }
        // A transaction whose BEGIN has not gone out has nothing on the server yet: a session
        // lost while idle is re-opened for it as for a command outside any transaction.
        guard wasIdleAfterLastCommand, !isInTransactionBlock || !pendingBegin.isEmpty else {
            throw PostgreSQLError(
                kind: .connection, code: .connectionFailure,
                message: "the connection was lost inside a transaction, which the server rolled back",
                sql: sql, connection: redactedURI)
        }
        try reopen()
    }

    /// Turns a `PGresult` into a `PostgreSQLResult`, or throws the error it carries.
    func check(_ result: OpaquePointer?, sql: String) throws(PostgreSQLError) -> PostgreSQLResult {
        defer { wasIdleAfterLastCommand = PQtransactionStatus(handle) == PQTRANS_IDLE }
        guard let result else {
            throw PostgreSQLError(
                kind: isConnected ? .server : .connection, code: isConnected ? nil : .connectionFailure,
                message: lastErrorMessage(), sql: sql, connection: redactedURI)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
            return PostgreSQLResult(handle: result, sql: sql)
        default:
            let error = makeError(result, sql: sql)
            PQclear(result)
            throw error
        }
    }

    func makeError(_ result: OpaquePointer, sql: String) -> PostgreSQLError {
        func field(_ code: Int32) -> String? {
            guard let value = PQresultErrorField(result, code) else { return nil }
            return PostgreSQLURI.scrub(String(cString: value), secrets: secrets)
        }
        // A FATAL error ends the session: the server closes it after sending the error, which
        // libpq may not have read yet when a pipeline's result arrives.
        let severity = field(cloner_pq_diag_severity_nonlocalized)
        let lost = !isConnected || severity == "FATAL" || severity == "PANIC"
        let code = field(cloner_pq_diag_sqlstate).map(PostgreSQLError.Code.init(rawValue:))
        lastServerErrorCode = code
        let message = field(cloner_pq_diag_message_primary) ?? lastErrorMessage()
        return PostgreSQLError(
            kind: lost ? .connection : .server,
            code: code ?? (lost ? .connectionFailure : nil),
            message: message,
            detail: field(cloner_pq_diag_message_detail),
            hint: field(cloner_pq_diag_message_hint),
            constraint: field(cloner_pq_diag_constraint_name),
            table: field(cloner_pq_diag_table_name),
            column: field(cloner_pq_diag_column_name),
            sql: sql, connection: redactedURI)
    }

    func lastErrorMessage() -> String {
        PostgreSQLURI.scrub(Self.trimmed(PQerrorMessage(handle)), secrets: secrets)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown libpq error" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "unknown libpq error" : text
    }
}

/// A connection must not cross threads while in use: the pool is the way to share them.
@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}

/// Calls `body` with two NULL-terminated arrays of C strings, as `PQconnectdbParams` takes.
private func withCStringArrays<T>(
    _ first: [String], _ second: [String],
    _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> T
) -> T {
    let firstPointers = first.map { UnsafePointer(strdup($0)) } + [nil]
    let secondPointers = second.map { UnsafePointer(strdup($0)) } + [nil]
    defer {
        for pointer in firstPointers + secondPointers { free(UnsafeMutablePointer(mutating: pointer)) }
    }
    return firstPointers.withUnsafeBufferPointer { a in
        secondPointers.withUnsafeBufferPointer { b in body(a.baseAddress!, b.baseAddress!) }
    }
}
