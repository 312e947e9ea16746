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

        /// About the bytes it takes on the wire, to keep a pipeline within the socket buffers.
        var approximateSize: Int { values.reduce(sql.utf8.count + 16) { $0 + $1.approximateSize } }
    }

    /// The most that statements sent together may take (`fitInOnePipeline`): the connection is
    /// in blocking mode, and a server whose answer to the first statement fills the socket stops
    /// reading the rest, so all of it must fit the socket buffers before the first answer is
    /// read. Pending writes and a batch of reads each stay under it, so the two together, in
    /// one pipeline, stay far under any socket buffer.
    static let pipelineBytes = 16 * 1024

    /// Whether `statements` may go out together in one pipeline (`pipelineBytes`).
    static func fitInOnePipeline(_ statements: [PipelinedStatement]) -> Bool {
        statements.reduce(0) { $0 + $1.approximateSize } <= pipelineBytes
    }

    /// A statement sent after a COMMIT, and what to do if it fails: the transaction is committed
    /// by then, so its failure is not the transaction's.
    package typealias AfterCommitStatement = (statement: PipelinedStatement, ifFailed: () -> Void)

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
    /// Every statement goes this way, one alone as `query` and `cachedQuery` send it too. The
    /// connection stays in blocking mode, which libpq allows while the answers to the statements
    /// sent first fit the socket buffers before the last is sent: a single statement's
    /// parameters and rows may be of any size (the server answers only once it has read the
    /// statement whole), and callers keep several together small (`fitInOnePipeline`; a
    /// clone's statements answer counts and command tags, its ids to return are read on their
    /// own).
    ///
    /// `unread` go out in the same round trip after the sync point, unprepared, each followed by
    /// a sync point of its own, so each runs in a transaction of its own: when every statement before succeeded, their results are left to
    /// `settleAfterCommit` and the call returns without waiting for them; otherwise they are read
    /// here too. Either way a failed one runs its `ifFailed`.
    /// `answered` hears each statement that succeeded (its index) as its result arrives, while
    /// later ones still run on the server: what follows a long statement's progress.
    package func pipeline(
        _ statements: [PipelinedStatement], unread: [AfterCommitStatement] = [], answered: ((Int) -> Void)? = nil
    ) throws(PostgreSQLError) -> [Result<PostgreSQLResult, PostgreSQLError>] {
        guard let first = statements.first else { return [] }
        try prepareForCommand(first.sql)
        commandsSent += statements.count - 1
        // A pending BEGIN and pending writes go first; the caller hears of its own statements
        // only, each by its own index (a failed BEGIN or write is every statement's outcome, as
        // any first failure is).
        let begun = pendingBegin.count + pendingWrites.count
        let statements = pendingBegin + pendingWrites + statements
        pendingBegin = []
        pendingWrites = []
        let answered = answered.map { answered in { (index: Int) in if index >= begun { answered(index - begun) } } }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionFailure(sql: first.sql) }
        let (sent, failure) = send(statements, reportsEach: answered != nil)
        // Whatever was sent is synced and read, so the session leaves pipeline mode clean.
        guard PQpipelineSync(handle) == 1 else { throw connectionFailure(sql: first.sql) }
        var sentUnread: [AfterCommitStatement] = []
        if failure == nil {
            sentUnread = try send(unread: unread)
        } else {
            for item in unread { item.ifFailed() }
        }
        let (outcomes, firstError) = try readOutcomes(of: sent, statements: statements, answered: answered)
        try leavePipeline(afterSending: sentUnread, failed: firstError != nil, sql: first.sql)
        if let failure { throw failure }
        return outcomes.enumerated().dropFirst(begun).map { index, outcome in
            outcome
                ?? .failure(
                    firstError
                        ?? PostgreSQLError(
                            kind: .server, code: nil, message: "not sent",
                            sql: statements[index].sql, connection: redactedURI))
        }
    }

    /// What a pipeline sent, in order: a PREPARE of a statement (its index) before its execution,
    /// or an execution.
    private enum Sent {
        case prepare(Int, PreparedStatementKey)
        /// With the statement's key when it runs prepared.
        case execute(Int, PreparedStatementKey?)

        var index: Int {
            switch self {
            case .prepare(let index, _), .execute(let index, _): index
            }
        }
    }

    /// Sends `statements` (each prepared first where it is to be and is not yet), stopping at the
    /// first that cannot be sent: what was sent, and that failure.
    private func send(_ statements: [PipelinedStatement], reportsEach: Bool) -> (sent: [Sent], failure: PostgreSQLError?) {
        var sent: [Sent] = []
        for (index, statement) in statements.enumerated() {
            let parameters: PostgreSQLParameters
            do { parameters = try PostgreSQLParameters(statement.values) } catch { return (sent, error) }
            var ok: Int32
            var preparedKey: PreparedStatementKey?
            if statement.isPrepared {
                let key = PreparedStatementKey(sql: statement.sql, types: parameters.types)
                preparedKey = key
                let name: String
                if let cached = preparedStatements[key] {
                    name = cached
                } else {
                    preparedStatementCounter += 1
                    name = "cloner_\(preparedStatementCounter)"
                    ok = key.types.withUnsafeBufferPointer { types in
                        PQsendPrepare(handle, name, statement.sql, Int32(types.count), types.baseAddress)
                    }
                    guard ok == 1 else { return (sent, connectionFailure(sql: statement.sql)) }
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
            guard ok == 1 else { return (sent, connectionFailure(sql: statement.sql)) }
            sent.append(.execute(index, preparedKey))
            // The server keeps results until its buffer fills or the sync point: a Flush after
            // the statement sends its result as soon as it is done, for `answered` to hear.
            if reportsEach, PQsendFlushRequest(handle) != 1 { return (sent, connectionFailure(sql: statement.sql)) }
        }
        return (sent, nil)
    }

    /// Sends the statements after the sync point, unprepared, each with a sync point of its own.
    private func send(unread: [AfterCommitStatement]) throws(PostgreSQLError) -> [AfterCommitStatement] {
        var sentUnread: [AfterCommitStatement] = []
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
        return sentUnread
    }

    /// Sends `statements` as `pipeline`'s `unread` ones go, without waiting for anything: their
    /// results are read before the session's next command (`settleAfterCommit`). For what ends a
    /// transaction whose outcome changes nothing the caller answers (a read-only COMMIT).
    func sendWithoutWaiting(_ statements: [AfterCommitStatement]) throws(PostgreSQLError) {
        guard let first = statements.first else { return }
        // Counted as they are sent (`send(unread:)`): nothing waits for them here.
        try prepareForCommand(first.statement.sql, waitsForAnswer: false)
        guard PQenterPipelineMode(handle) == 1 else { throw connectionFailure(sql: first.statement.sql) }
        unsettledAfterCommit = try send(unread: statements)
        wasIdleAfterLastCommand = true
    }

    /// Runs a write of the open transaction whose answer the caller does not need (an INSERT of
    /// new rows): it goes out ahead of the session's next command, at the latest the COMMIT, in
    /// that command's round trip, prepared. Its failure is the transaction's, thrown by that
    /// command as a failed BEGIN's is; a write the caller never reached the COMMIT after is never
    /// sent. Writes that would not fit one pipeline ahead of a command (`fitInOnePipeline`) go
    /// out now, with this one, and are waited for.
    package func performBeforeNextCommand(_ sql: String, values: [PostgreSQLValue]) throws(PostgreSQLError) {
        precondition(isInTransactionBlock, "a write sent with the next command outside a transaction on \(redactedURI)")
        let write = PipelinedStatement(sql, values, isPrepared: true)
        guard Self.fitInOnePipeline(pendingWrites + [write]) else {
            _ = try cachedQuery(sql, values)
            return
        }
        commandsSent += 1
        pendingWrites.append(write)
    }

    /// Sends the pending writes (and BEGIN) on their own and waits for them: for a command that
    /// cannot carry them (`execute`'s simple protocol has no parameters).
    func sendPendingWrites() throws(PostgreSQLError) {
        guard !pendingWrites.isEmpty else { return }
        let writes = pendingWrites
        pendingWrites = []
        commandsSent -= writes.count
        for outcome in try pipeline(writes) { _ = try outcome.get() }
    }

    /// Reads one result per item sent, then the sync point's: each statement's outcome (nil for
    /// one never sent) and the first error met.
    private func readOutcomes(
        of sent: [Sent], statements: [PipelinedStatement], answered: ((Int) -> Void)?
    ) throws(PostgreSQLError) -> (outcomes: [Result<PostgreSQLResult, PostgreSQLError>?], firstError: PostgreSQLError?) {
        var outcomes: [Result<PostgreSQLResult, PostgreSQLError>?] = Array(repeating: nil, count: statements.count)
        var firstError: PostgreSQLError?
        for item in sent {
            let index = item.index
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
            case .execute(_, let key):
                // The server lost the statement (DISCARD ALL from a pooler): prepared again next time.
                if case .failure(let error) = outcome, error.code == .invalidSQLStatementName, let key { preparedStatements[key] = nil }
                if outcomes[index] == nil { outcomes[index] = outcome }
                if case .success = outcome { answered?(index) }
            }
        }
        // The sync point's own result.
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        return (outcomes, firstError)
    }

    /// Normal mode again, unless statements sent after the COMMIT are left to
    /// `settleAfterCommit`: their results are read here only past a failure (the caller rolls
    /// back after the rest is read).
    private func leavePipeline(afterSending sentUnread: [AfterCommitStatement], failed: Bool, sql: String) throws(PostgreSQLError) {
        var leftUnread = false
        if !sentUnread.isEmpty {
            unsettledAfterCommit = sentUnread
            if failed { settleAfterCommit() } else { leftUnread = true }
        }
        if leftUnread {
            // The statements before the unread ones ended their transaction (a COMMIT).
            wasIdleAfterLastCommand = true
        } else {
            wasIdleAfterLastCommand = PQtransactionStatus(handle) == PQTRANS_IDLE
            guard PQexitPipelineMode(handle) == 1 else { throw connectionFailure(sql: sql) }
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

    /// libpq refused a pipeline step: the session stopped answering part way (its server went
    /// away before the sync point's result, though the socket's end is not read yet), so no
    /// later command can trust it. It is lost — said so, so that the store answers a lost node
    /// (and a COMMIT in the pipeline an unknown outcome) rather than an unexpected failure, and
    /// the pool drops it.
    private func connectionFailure(sql: String) -> PostgreSQLError {
        isBroken = true
        return PostgreSQLError(
            kind: .connection, code: (isConnected ? lastServerErrorCode : nil) ?? .connectionFailure,
            message: lastErrorMessage(), sql: sql, connection: redactedURI)
    }
}
