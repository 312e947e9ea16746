import CLibPQ

extension PostgreSQLConnection {
    /// SQL transaction isolation levels as PostgreSQL implements them (PostgreSQL §13.2).
    package enum IsolationLevel: String, Sendable {
        /// Each statement sees what was committed before it started.
        case readCommitted = "READ COMMITTED"
        /// One snapshot for the whole transaction: what a clone needs to copy a consistent source
        /// (docs/architecture.md#postgresql). A write to a row another transaction changed since the snapshot fails
        /// with `.serializationFailure`, to be retried from the start.
        case repeatableRead = "REPEATABLE READ"
        /// Repeatable read plus detection of serialization anomalies (SSI), also failing with 40001.
        case serializable = "SERIALIZABLE"
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    ///
    /// A statement that failed inside `body` aborts the transaction on the server even if `body`
    /// caught the error; PostgreSQL would then answer COMMIT with a silent ROLLBACK, so this
    /// throws instead of reporting success. Retrying on `isRetryableTransactionFailure` is the
    /// caller's decision: only it knows whether `body` may run again.
    @discardableResult
    package func transaction<T>(
        _ isolation: IsolationLevel = .readCommitted, readOnly: Bool = false,
        _ body: () throws -> T
    ) throws -> T {
        precondition(!isInTransactionBlock && !isInTransaction, "nested transaction on \(redactedURI)")
        try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : ""))
        isInTransactionBlock = true
        defer { isInTransactionBlock = false }
        let result: T
        do {
            result = try body()
        } catch {
            rollbackAfterFailure()
            throw error
        }
        if PQtransactionStatus(handle) == PQTRANS_INERROR {
            rollbackAfterFailure()
            throw PostgreSQLError(
                kind: .server, code: .inFailedSQLTransaction,
                message: "a statement failed inside the transaction (its error was caught), so it was rolled back",
                sql: "COMMIT", connection: redactedURI)
        }
        try execute("COMMIT")
        return result
    }

    /// Rolls back after `body` failed; on a lost session there is nothing to roll back (the server
    /// ended the transaction with the session), and the next command outside may re-open it.
    private func rollbackAfterFailure() {
        if isConnected {
            if isInTransaction { try? execute("ROLLBACK") }
        } else {
            wasIdleAfterLastCommand = true
        }
    }
}
