import ClonerModel

/// The writes, their failures, and what a clone leaves to its session and its COMMIT.
extension PostgreSQLGraphCopier {
    /// What the writes need.
    struct Writes {
        let sql: PostgreSQLGraphCopySQL
        let root: EntityDescription
        let rootLinks: [GraphCopyReference]
        let walked: Walked
        let parameters: [PostgreSQLValue]
        let progress: GraphCopyProgress

        var steps: [PostgreSQLGraphCopySQL.EntityStep] { sql.entitySteps.filter { (walked.counts[$0.tag] ?? 0) > 0 } }
    }

    /// Sends `batch` and the writes after it, in one pipeline or one by one (`Delivery`), with the
    /// check of the source after its last read where the clone checks so.
    mutating func write(_ writes: Writes, delivery: Delivery, batch: PostgreSQLStatementBatch) throws {
        var batch = batch
        let (sql, entities) = (writes.sql, Set(writes.walked.counts.keys))
        let checksSourceLast = delivery.sourceGuard == .checkAfterLastRead
        if delivery.pipelined {
            if !plan.dryRun { addWrites(writes, into: &batch) }
            if checksSourceLast { compareSourceVersions(sql: sql, walked: entities, locking: false, into: &batch) }
            try run(batch, pipelined: true)
            return
        }
        try run(batch, pipelined: false)
        if !plan.dryRun {
            if delivery.locatesCopy {
                statementCount += 1
                try connection.execute("SAVEPOINT \"_clone_write\"")
            }
            var statements = PostgreSQLStatementBatch()
            addWrites(writes, into: &statements)
            try run(statements, pipelined: false)
            try writeRootLinks(writes.rootLinks, root: writes.root, rootTag: sql.rootTag)
        }
        if checksSourceLast {
            var check = PostgreSQLStatementBatch()
            compareSourceVersions(sql: sql, walked: entities, locking: false, into: &check)
            try run(check, pipelined: false)
        }
    }

    private func addWrites(_ writes: Writes, into batch: inout PostgreSQLStatementBatch) {
        addWrites(
            sql: writes.sql, steps: writes.steps, counts: writes.walked.counts, mayAppend: writes.walked.mayAppend,
            parameters: writes.parameters, progress: writes.progress, into: &batch)
    }

    /// What a failed write is reported as: a unique violation in model terms (`GraphCopier` then
    /// names the copy), a change of the source as a failure the store runs again.
    func failure(_ error: any Error, delivery: Delivery) -> any Error {
        switch error {
        case let error as PostgreSQLError where error.isRetryableTransactionFailure:
            // Left as it is for the store's write, which runs the whole transaction again.
            return error
        case let error as PostgreSQLError where delivery.sourceGuard == .lockWaitingBriefly && error.code == .lockNotAvailable:
            return Self.sourceChanged("its source was being edited: \(error.message)", sql: error.sql ?? "", connection: connection.redactedURI)
        case let error as PostgreSQLError where delivery.sourceGuard == .checkAfterLastRead && error.kind == .server:
            // Reads made across an edit of the source can fail a write (a reference to a row
            // gone, a value that clashes) before the check could tell: the run with the source
            // locked reports a failure that is truly the clone's.
            return Self.sourceChanged(
                "a write failed before the source was checked: \(error.message)", sql: error.sql ?? "", connection: connection.redactedURI)
        default:
            return (error as? PostgreSQLError).map { $0.storeError(layout: context.layout) } ?? error
        }
    }

    /// Hands the session what this clone leaves to the COMMIT, and what it learned of the source's
    /// walk: a remembered walk found out of date is forgotten, one read back is remembered.
    func leave(_ work: CommitWork, reuse: Reuse, learned: PostgreSQLSourceWalks.Walk?, copied: Bool) {
        if reuse.keepsWalkTable && !copied { session.forgetWalkTable() }
        if let key = reuse.key {
            if !copied, reuse.remembered != nil { session.sourceWalks.forget(key) }
            if copied, let learned { session.sourceWalks.remember(learned, for: key) }
        }
        session.copied(work)
    }

    /// After the writes: the ids to return, and the work left to the COMMIT.
    mutating func finish(
        sql: PostgreSQLGraphCopySQL, walked: Walked, reuse: Reuse, reusesLinks: Bool, answers: Answers
    ) throws -> [[String: [Int64: Int64]]]? {
        var work = CommitWork()
        if !plan.dryRun {
            work.beforeCommit = versionStepsAtCommit(sql: sql, linked: answers.linkedCounts)
            // The linked objects are not locked (`PostgreSQLGraphCopySQL.linkedLockSQL`): one
            // deleted before the commit fails its foreign key there, and the clone runs again.
            work.referencesUnlockedRows = !answers.linkedCounts.isEmpty
        }
        var ids: [[String: [Int64: Int64]]]?
        if plan.returnIDs {
            var perCopy = [[String: [Int64: Int64]]](repeating: [:], count: plan.copies)
            let entities = schema.model.entities
            try query("SELECT cp, ent, old, new FROM \(PostgreSQLGraphCopySQL.mapTable)", []).forEachRow { row in
                perCopy[Int(row.int64(0)) - 1][entities[Int(row.int64(1))].name, default: [:]][row.int64(2)] = row.int64(3)
            }
            ids = perCopy
        }
        let truncated = truncate(walked: walked, reuse: reuse, answers: answers, into: &work)
        // What the walk and linked tables hold if this transaction commits: the walk of this
        // source and its links, when both are remembered and the clone does not end by
        // truncating them.
        let holdsRemembered = reusesLinks || answers.learned?.links != nil
        var atCommit: PostgreSQLSourceWalks.Held?
        if !truncated, holdsRemembered, let key = reuse.key, let token = reuse.token { atCommit = .init(key: key, token: token) }
        work.walkTableAtCommit = .some(atCommit)
        leave(work, reuse: reuse, learned: answers.learned, copied: true)
        return ids
    }

    /// The work tables due for a `TRUNCATE` after the rows this clone leaves in them (a kept
    /// walk's tables are not written), right after the COMMIT, in its round trip: the linked
    /// objects' version steps read the linked table at the commit, and a truncation before them
    /// left the shared objects of every large clone unstepped. A truncation that fails leaves
    /// the rows for the next clone's. Whether the walk's tables are truncated.
    private mutating func truncate(walked: Walked, reuse: Reuse, answers: Answers, into work: inout CommitWork) -> Bool {
        let map = PostgreSQLGraphCopySQL.mapTable
        let left = [
            PostgreSQLGraphCopySQL.walkTable: walked.tableRows, map: walked.total,
            PostgreSQLGraphCopySQL.linkedTable: reuse.keepsWalkTable ? 0 : answers.linkedCounts.values.reduce(0, +),
            PostgreSQLSourceWalks.tokenTable: reuse.token != nil && !reuse.keepsWalkTable ? 1 : 0,
        ]
        let due = session.leftRows(left, truncatingFrom: Self.truncateRows)
        guard !due.isEmpty else { return false }
        statementCount += 1
        let session = session
        work.afterCommit.append(
            (
                .init("TRUNCATE \(due.joined(separator: ", "))", [], isPrepared: false),
                { session.truncationFailed(due, limit: Self.truncateRows) }
            ))
        // A remembered walk lives in the walk, linked and token tables, not in the map.
        return due != [map]
    }
}
