import CLibPQ

extension PostgreSQLConnection {
    /// One statement of a pipeline: run prepared (and cached for the session, as `cachedQuery`
    /// does) or unprepared (as `query` does).
    package struct PipelinedStatement {
        package var sql: String
        package var values: [PostgreSQLValue]
        package var isPrepared: Bool

        package init(_ sql: String, _ values: [PostgreSQLValue], isPrepared: Bool) {
            self.sql = sql
            self.values = values
            self.isPrepared = isPrepared
        }
    }

    /// Sends `statements` in one go through libpq's pipeline mode and reads their results after
    /// one sync point: one round trip where running them one by one takes one each, so a short
    /// transaction of many statements no longer waits for a wake-up of each process per statement
    /// (libpq §34.5). The server runs them in order, exactly as if sent one by one; after the first
    /// that fails it skips the rest up to the sync point, and the transaction is aborted, as it
    /// would be anyway.
    ///
    /// Answers one outcome per statement, in order: its rows, or its error; a statement skipped
    /// after an error answers that error too, so the caller can read the outcomes in order and
    /// act on the first thing that went wrong — a failed check of an earlier statement's rows
    /// before a later statement's error. Throws only when the connection itself fails.
    ///
    /// The connection stays in blocking mode, which libpq allows for pipelines whose statements
    /// and results fit the socket buffers: callers send a few dozen statements of SQL text and
    /// small parameters, whose results are counts and command tags, never bulk data (a clone's
    /// ids to return are read on their own).
    ///
    /// `unread` go out in the same round trip after the sync point, unprepared, each followed by
    /// a sync point of its own, so each runs in a transaction of its own: when every statement before succeeded, their results are left to
    /// `settleAfterCommit` and the call returns without waiting for them; otherwise they are read
    /// here too. Either way a failed one runs its `ifFailed`.
    package func pipeline(
        _ statements: [PipelinedStatement], unread: [(statement: PipelinedStatement, ifFailed: () -> Void)] = []
    ) throws(PostgreSQLError) -> [Result<PostgreSQLResult, PostgreSQLError>] {
        guard let first = statements.first else { return [] }
        try prepareForCommand(first.sql)
        commandsSent += statements.count - 1
        guard PQenterPipelineMode(handle) == 1 else { throw connectionFailure(sql: first.sql) }
        /// What was sent, in order: a PREPARE of a statement (its index) before its execution, or
        /// an execution.
        enum Sent {
            case prepare(Int, PreparedStatementKey)
            case execute(Int)
        }
        var sent: [Sent] = []
        var failure: PostgreSQLError?
        for (index, statement) in statements.enumerated() where failure == nil {
            let parameters: PostgreSQLParameters
            do { parameters = try PostgreSQLParameters(statement.values) } catch {
                failure = error
                break
            }
            var ok: Int32
            if statement.isPrepared {
                let key = PreparedStatementKey(sql: statement.sql, types: parameters.types)
                let name: String
                if let cached = preparedStatements[key] {
                    name = cached
                } else {
                    preparedStatementCounter += 1
                    name = "cloner_\(preparedStatementCounter)"
                    ok = key.types.withUnsafeBufferPointer { types in
                        PQsendPrepare(handle, name, statement.sql, Int32(types.count), types.baseAddress)
                    }
                    guard ok == 1 else { failure = connectionFailure(sql: statement.sql); break }
                    preparedStatements[key] = name
                    sent.append(.prepare(index, key))
                }
                ok = parameters.withUnsafeArguments { _, values, lengths, formats in
                    PQsendQueryPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
                }
            } else {
                ok = parameters.withUnsafeArguments { types, values, lengths, formats in
                    PQsendQueryParams(handle, statement.sql, Int32(parameters.count), types, values, lengths, formats, 1)
                }
            }
            guard ok == 1 else { failure = connectionFailure(sql: statement.sql); break }
            sent.append(.execute(index))
        }
        // Whatever was sent is synced and read, so the session leaves pipeline mode clean.
        guard PQpipelineSync(handle) == 1 else { throw connectionFailure(sql: first.sql) }
        var sentUnread: [(statement: PipelinedStatement, ifFailed: () -> Void)] = []
        if failure == nil {
            for item in unread {
                let parameters: PostgreSQLParameters
                do { parameters = try PostgreSQLParameters(item.statement.values) } catch {
                    item.ifFailed()
                    continue
                }
                let ok = parameters.withUnsafeArguments { types, values, lengths, formats in
                    PQsendQueryParams(handle, item.statement.sql, Int32(parameters.count), types, values, lengths, formats, 1)
                }
                guard ok == 1, PQpipelineSync(handle) == 1 else {
                    for item in sentUnread + [item] { item.ifFailed() }
                    throw connectionFailure(sql: item.statement.sql)
                }
                sentUnread.append(item)
            }
            commandsSent += sentUnread.count
        } else {
            for item in unread { item.ifFailed() }
        }

        var outcomes: [Result<PostgreSQLResult, PostgreSQLError>?] = Array(repeating: nil, count: statements.count)
        var firstError: PostgreSQLError?
        for item in sent {
            let index: Int
            switch item {
            case .prepare(let i, _), .execute(let i): index = i
            }
            let sql = statements[index].sql
            guard let result = PQgetResult(handle) else { throw connectionFailure(sql: sql) }
            // Each statement's results end with a NULL.
            defer { while let extra = PQgetResult(handle) { PQclear(extra) } }
            let outcome: Result<PostgreSQLResult, PostgreSQLError>
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                outcome = .failure(
                    firstError
                        ?? PostgreSQLError(
                            kind: .server, code: nil, message: "skipped after an earlier statement failed",
                            sql: sql, connection: redactedURI))
            } else {
                do throws(PostgreSQLError) { outcome = .success(try check(result, sql: sql)) } catch { outcome = .failure(error) }
            }
            if case .failure(let error) = outcome, firstError == nil { firstError = error }
            switch item {
            case .prepare(_, let key):
                // A failed PREPARE: the statement's execution is skipped, and its error is the
                // statement's outcome.
                if case .failure = outcome {
                    preparedStatements[key] = nil
                    outcomes[index] = outcome
                }
            case .execute:
                if outcomes[index] == nil { outcomes[index] = outcome }
            }
        }
        // The sync point's own result, then normal mode again.
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        var leftUnread = false
        if !sentUnread.isEmpty {
            unsettledAfterCommit = sentUnread
            // Past a failure the caller rolls back, after the rest is read.
            if firstError == nil { leftUnread = true } else { settleAfterCommit() }
        }
        if leftUnread {
            // The statements before the unread ones ended their transaction (a COMMIT).
            wasIdleAfterLastCommand = true
        } else {
            wasIdleAfterLastCommand = PQtransactionStatus(handle) == PQTRANS_IDLE
            guard PQexitPipelineMode(handle) == 1 else { throw connectionFailure(sql: first.sql) }
        }
        if let failure { throw failure }
        return outcomes.enumerated().map { index, outcome in
            outcome
                ?? .failure(
                    firstError
                        ?? PostgreSQLError(
                            kind: .server, code: nil, message: "not sent",
                            sql: statements[index].sql, connection: redactedURI))
        }
    }

    /// Reads the results of the statements sent after the last COMMIT (`unsettledAfterCommit`),
    /// running `ifFailed` for each that failed, and leaves pipeline mode: the session is then
    /// ready for its next command. Waits while the server still runs them. A session lost meanwhile
    /// counts them all as failed, and its next command re-opens it as after any idle loss.
    func settleAfterCommit() {
        guard !unsettledAfterCommit.isEmpty else { return }
        let unsettled = unsettledAfterCommit
        unsettledAfterCommit.removeAll()
        for item in unsettled {
            // The statement's results, then its sync point's.
            var succeeded = false, synced = false
            while let result = PQgetResult(handle) {
                let status = PQresultStatus(result)
                PQclear(result)
                if status == PGRES_PIPELINE_SYNC {
                    synced = true
                    break
                }
                if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { succeeded = true }
            }
            if !synced {
                while let result = PQgetResult(handle) {
                    let status = PQresultStatus(result)
                    PQclear(result)
                    if status == PGRES_PIPELINE_SYNC { break }
                }
            }
            if !succeeded { item.ifFailed() }
        }
        _ = PQexitPipelineMode(handle)
        wasIdleAfterLastCommand = true
    }

    private func connectionFailure(sql: String) -> PostgreSQLError {
        PostgreSQLError(
            kind: isConnected ? .server : .connection, code: isConnected ? nil : .connectionFailure,
            message: lastErrorMessage(), sql: sql, connection: redactedURI)
    }
}
