extension PostgreSQLError {
    /// The backend-neutral form the store's public errors carry: the SQLSTATE as the code
    /// (`pool` for an exhausted pool, which has none), the message with the server's detail and
    /// hint, and the SQL. The connection is left out: it is already redacted, but a log line
    /// needs no URI to be useful.
    package var failure: DatabaseFailure {
        var text = message
        if let detail { text += " (detail: \(detail))" }
        if let hint { text += " (hint: \(hint))" }
        if let constraint { text += " (constraint: \(constraint))" }
        return DatabaseFailure(backend: "PostgreSQL", code: code?.rawValue ?? "pool", message: text, sql: sql, isBusy: isBusy)
    }

    /// Whether trying again soon may succeed: the server has no connection slot left, a lock wait
    /// timed out, the pool was exhausted, or the transaction lost a serialization race (the
    /// service answers 503 + Retry-After for these, not 500). A lost node is said apart
    /// (`isNodeLost`): it is no contention.
    package var isBusy: Bool {
        if kind == .poolExhausted || isRetryableTransactionFailure { return true }
        guard let code else { return false }
        return [.tooManyConnections, .lockNotAvailable].contains(code)
    }
}
