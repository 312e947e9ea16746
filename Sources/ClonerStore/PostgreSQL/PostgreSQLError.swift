/// A failed PostgreSQL call: the SQLSTATE the server (or, for client-side failures, this wrapper)
/// assigned, the server's fields that locate the fault, and the SQL — so a log line says exactly
/// what failed where, and callers branch on the code, never on message text.
///
/// It never holds a password: the connection is named by its redacted URI
/// (`PostgreSQLURI.redacted(_:)`), messages are scrubbed of the URI's password before they are
/// stored, and parameter values are not kept (they are user data).
package struct PostgreSQLError: Error, Sendable, CustomStringConvertible {
    /// Where the failure arose, which decides what a caller can do about it.
    package enum Kind: Sendable, Hashable {
        /// The server answered with an error; the connection is still usable.
        case server
        /// The connection could not be opened, or was lost: the session and any transaction on it
        /// are gone. Outside a transaction, the next use re-opens it.
        case connection
        /// The pool had no connection to hand out before the checkout timeout.
        case poolExhausted
        /// A value this wrapper cannot encode or decode (a date outside PostgreSQL's range, say).
        case client
    }

    package let kind: Kind
    /// The SQLSTATE (PostgreSQL Appendix A); nil only for `.poolExhausted`, which has no standard
    /// code. Failures to connect carry 08001, lost connections 08006 when the server sent none.
    package let code: Code?
    /// The primary message, scrubbed of any password.
    package let message: String
    package let detail: String?
    package let hint: String?
    /// `PG_DIAG_CONSTRAINT_NAME`: the unique, foreign-key or check constraint that was violated.
    package let constraint: String?
    package let table: String?
    package let column: String?
    /// The statement that failed (its text only: parameter values are never kept).
    package let sql: String?
    /// The connection's URI with its password replaced by `***`.
    package let connection: String?
    /// The session was lost while its transaction committed: the server may have kept it, so
    /// what it wrote is to be looked for, never assumed absent.
    package var outcomeUnknown = false

    package init(
        kind: Kind, code: Code?, message: String, detail: String? = nil, hint: String? = nil,
        constraint: String? = nil, table: String? = nil, column: String? = nil,
        sql: String? = nil, connection: String? = nil
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.table = table
        self.column = column
        self.sql = sql
        self.connection = connection
    }

    /// A serialization failure or deadlock: the transaction was rolled back and running it again
    /// from the start may succeed (docs/architecture.md#postgresql: retried a few times, then 503 + Retry-After).
    package var isRetryableTransactionFailure: Bool {
        code == .serializationFailure || code == .deadlockDetected
    }

    package var isUniqueViolation: Bool { code == .uniqueViolation }
    package var isForeignKeyViolation: Bool { code == .foreignKeyViolation }
    package var isConnectionLost: Bool { kind == .connection }

    /// Whether the node this session reached can no longer take its writes: the session was lost
    /// or could not be opened (no primary answers through the URI), the server is shutting down
    /// or starting (57P01–57P03), or it is a standby now (25006: a demoted primary). Every pooled
    /// session to that node is as useless, and the next one must find the primary afresh.
    package var isNodeLost: Bool {
        if kind == .connection { return true }
        guard let code else { return false }
        return code.errorClass == "08" || [.adminShutdown, .crashShutdown, .cannotConnectNow, .readOnlySQLTransaction].contains(code)
    }

    package var description: String {
        var text = "PostgreSQL error"
        if let code { text += " \(code)" }
        text += ": \(message)"
        if let detail { text += " — detail: \(detail)" }
        if let hint { text += " — hint: \(hint)" }
        if let constraint { text += " — constraint: \(constraint)" }
        if let table { text += " — table: \(table)" }
        if let column { text += " — column: \(column)" }
        if let sql { text += " — in: \(sql)" }
        if let connection { text += " — on: \(connection)" }
        return text
    }
}
