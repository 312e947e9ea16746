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
    /// caller's decision: only it knows whether `body` may run again. A `participant` adds
    /// statements to the COMMIT's round trip and hears how the transaction ended.
    ///
    /// `onSynchronousStandby`: the COMMIT happens only where a synchronous standby will have the
    /// transaction (`synchronousStandbyGuard`), else the transaction rolls back (CL001); a COMMIT
    /// whose wait for the standby was cancelled throws with an unknown outcome (CL002).
    @discardableResult
    package func transaction<T>(
        _ isolation: IsolationLevel = .readCommitted, readOnly: Bool = false, onSynchronousStandby: Bool = false,
        participant: (any PostgreSQLCommitParticipant)? = nil, _ body: () throws -> T
    ) throws -> T {
        precondition(!isInTransactionBlock && !isInTransaction, "nested transaction on \(redactedURI)")
        // The BEGIN goes out with the body's first command, in its round trip (`pendingBegin`). A
        // write commits at the durability the server is configured for, whatever the session
        // chose for what it does outside transactions (`PostgreSQLCloneSession.workTablesDDL`).
        pendingBegin = [PipelinedStatement("BEGIN ISOLATION LEVEL \(isolation.rawValue)" + (readOnly ? " READ ONLY" : ""), [], isPrepared: false)]
        if !readOnly { pendingBegin.append(PipelinedStatement("SET LOCAL synchronous_commit TO DEFAULT", [], isPrepared: false)) }
        commandsSent += 1
        isInTransactionBlock = true
        var committed = false
        defer {
            isInTransactionBlock = false
            pendingBegin = []
            pendingWrites = []
            participant?.transactionEnded(committed: committed)
        }
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
        let guarded = !readOnly && onSynchronousStandby
        let before = (participant?.statementsBeforeCommit ?? []) + (guarded ? [Self.synchronousStandbyGuard] : [])
        let after = participant?.statementsAfterCommit ?? []
        cancelGate.setCommitting(true)
        defer { cancelGate.setCommitting(false) }
        notices.reset()
        do throws(PostgreSQLError) {
            // Writes still pending go out with the COMMIT, ahead of it in its pipeline.
            if before.isEmpty && after.isEmpty && pendingWrites.isEmpty {
                // A body that sent nothing left nothing to commit, and its BEGIN is not sent. A
                // read's COMMIT changes nothing it read: it goes out and is answered with the
                // session's next command, not waited for.
                if pendingBegin.isEmpty, readOnly {
                    try sendWithoutWaiting([(PipelinedStatement("COMMIT", [], isPrepared: false), {})])
                } else if pendingBegin.isEmpty {
                    try execute("COMMIT")
                }
            } else {
                try commit(after: before, then: after)
            }
            committed = true
            if guarded && notices.synchronousWaitCancelled {
                var error = PostgreSQLError(
                    kind: .server, code: .synchronousWaitCancelled,
                    message: "the COMMIT's wait for its synchronous standby was cancelled: the primary kept the write, no standby may have it",
                    sql: "COMMIT", connection: redactedURI)
                error.outcomeUnknown = true
                throw error
            }
        } catch let error where error.code == .synchronousWaitCancelled {
            throw error
        } catch {
            var error = error
            // The session went while the COMMIT was on its way or waiting for a standby: the
            // server may have kept the transaction. A standby's refusal (25006) or a server not
            // yet accepting sessions wrote nothing.
            if error.isNodeLost, error.code != .readOnlySQLTransaction, error.code != .cannotConnectNow { error.outcomeUnknown = true }
            throw participant?.commitFailure(error) ?? error
        }
        return result
    }

    /// Last before a guarded write's COMMIT (`onSynchronousStandby`), in its round trip:
    /// refuses (SQLSTATE CL001) when the COMMIT would not wait for a synchronous standby — none
    /// named, as pg_auto_failover leaves a primary in `wait_primary`, or `synchronous_commit`
    /// `off` or `local` — so a write is acknowledged only where a failover keeps it. It also gives
    /// the transaction an id: a transaction that wrote nothing commits without waiting, and a
    /// retry that only reads an earlier answer (an Idempotency-Key's) must wait for the standby
    /// to have everything before it — the earlier answer too. The session reads a reload of the
    /// settings between commands, so the check sees what the COMMIT will.
    static let synchronousStandbyGuard = PipelinedStatement(
        """
        DO $guard$BEGIN PERFORM txid_current(); \
        IF current_setting('synchronous_standby_names') = '' OR current_setting('synchronous_commit') IN ('off', 'local') THEN \
        RAISE EXCEPTION USING ERRCODE = 'CL001', MESSAGE = 'no synchronous standby would have this write ' || \
        '(synchronous_standby_names is empty, or synchronous_commit is off or local): it was not committed'; \
        END IF; END$guard$
        """, [], isPrepared: false)

    /// Sends `before`, the COMMIT and `then` in one pipeline. A statement before the COMMIT that
    /// takes a row lock other transactions queue for (a clone's version step of a shared object)
    /// then holds it for its own run and the commit's WAL flush only — not also for a round trip
    /// to this process and the wait for its thread, which on a busy machine is the longer part;
    /// one after it holds no lock of the transaction's.
    /// The first failure up to the COMMIT is thrown (the COMMIT after it is skipped) and the
    /// transaction rolled back, as a failure inside the body would be; a failure after it only
    /// runs the statement's `ifFailed`. The transaction's answer does not wait for the statements
    /// after the COMMIT: their results are read before the session's next command
    /// (`settleAfterCommit`), so a large clone's `TRUNCATE` of its map, file work on the server,
    /// is not part of its answer's time.
    private func commit(after before: [PipelinedStatement], then after: [AfterCommitStatement]) throws(PostgreSQLError) {
        let statements = before + [PipelinedStatement("COMMIT", [], isPrepared: false)]
        do throws(PostgreSQLError) {
            for outcome in try pipeline(statements, unread: after) { _ = try outcome.get() }
        } catch {
            rollbackAfterFailure()
            throw error
        }
    }

    /// Rolls back after `body` failed; on a lost session there is nothing to roll back (the server
    /// ended the transaction with the session), and the next command outside may re-open it.
    private func rollbackAfterFailure() {
        // A BEGIN never sent opened nothing to roll back; writes never sent wrote nothing.
        pendingBegin = []
        pendingWrites = []
        if isConnected {
            if isInTransaction { try? execute("ROLLBACK") }
        } else {
            wasIdleAfterLastCommand = true
        }
    }
}
