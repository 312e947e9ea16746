import ClonerModel

/// The copy after the checks: the walk, the limit, the source's guard and the map, the linked
/// objects, the clone ids, the writes, and what the clone leaves to the COMMIT.
extension PostgreSQLGraphCopier {
    /// What the statements after the walk read, from inside the batch's readers.
    final class Answers {
        /// Linked objects per entity.
        var linkedCounts: [Int: Int] = [:]
        var cloneIDs: [Int64] = []
        /// The walk read back to be remembered.
        var learned: PostgreSQLSourceWalks.Walk?
    }

    /// How the statements after the walk go out.
    struct Delivery {
        /// Many copies write inside a savepoint: a unique violation aborts what follows it in the
        /// transaction, and naming the copy that clashed needs one more query.
        let locatesCopy: Bool
        /// A clone sends all its statements after the walk in one round trip, unprepared for a
        /// large one; only the root's replaced lists, whose statements depend on what an earlier
        /// one found, and a clone that must name the copy that clashed, go statement by
        /// statement. The server plans each unprepared statement when it comes to it, after the
        /// `ANALYZE` before it has run.
        let pipelined: Bool
        let sourceGuard: PostgreSQLCloneSession.SourceGuard
    }

    typealias CommitWork = PostgreSQLCloneSession.CommitWork

    /// The guard of the source, then the map's fill (`PostgreSQLCloneSession.SourceGuard`).
    func addSourceGuardAndMap(
        sql: PostgreSQLGraphCopySQL, walked: Walked, guard sourceGuard: PostgreSQLCloneSession.SourceGuard,
        parameters: [PostgreSQLValue], into batch: inout PostgreSQLStatementBatch
    ) {
        let entities = Set(walked.counts.keys)
        switch sourceGuard {
        case .checkAfterLastRead:
            batch.add(plan.dryRun ? sql.mapFillDryRun : sql.mapFill, parameters)
        case .lockWaitingBriefly:
            // A small clone that locks its source waits at most `sourceLockTimeout` for the rows:
            // an edit of the template locks its rows in its own order (children, then the parent
            // whose version steps), and a clone waiting for one of them while holding another
            // would deadlock with it, which PostgreSQL tells only after a second. Timed out, the
            // clone runs again and the edit goes on.
            batch.add("SELECT set_config('lock_timeout', '\(Self.sourceLockTimeout)', true)", [])
            compareSourceVersions(sql: sql, walked: entities, locking: true, into: &batch)
            batch.add("SET LOCAL lock_timeout TO DEFAULT", [])
            batch.add(plan.dryRun ? sql.mapFillDryRun : sql.mapFill, parameters)
        case .lockFirst:
            // A large clone's statements are planned for the rows it has, with the session's
            // settings (given with its walk into the map, where it walked so).
            if !walked.intoMap {
                for setting in PostgreSQLGraphCopySQL.plannerDefaults { batch.add(setting, []) }
                batch.add(plan.dryRun ? sql.mapFillDryRun : sql.mapFill, parameters)
            }
            // Temporary tables are never analysed automatically; without statistics a large clone
            // would be planned as if the map held a handful of rows.
            batch.add("ANALYZE \(PostgreSQLGraphCopySQL.mapTable)", [])
            compareSourceVersions(sql: sql, walked: entities, locking: true, fromMap: walked.intoMap, into: &batch)
        }
    }

    /// The linked objects: found (or the remembered ones reused), what the root is set to link
    /// added, and counted.
    func addLinks(
        _ linkedSQL: PostgreSQLGraphCopySQL.LinkedStatements, reused: PostgreSQLSourceWalks.Links?,
        setReferences: [(relationship: RelationshipDescription, ids: [Int64])],
        rootLinks: [(relationship: RelationshipDescription, ids: [Int64])], parameters: [PostgreSQLValue], answers: Answers,
        into batch: inout PostgreSQLStatementBatch
    ) {
        if reused == nil { for statement in linkedSQL.queries { batch.add(statement, parameters) } }
        // A to-one set on the roots, and a to-many: their objects are linked too, and a to-many's
        // gain a version step when their own list (the inverse) changes — once, however many
        // copies link them.
        let named = setReferences + rootLinks.filter { !$0.ids.isEmpty }
        for (relationship, ids) in named {
            let tag = schema.entityTag(relationship.destination)
            batch.add(
                """
                INSERT INTO \(PostgreSQLGraphCopySQL.linkedTable) AS l (ent, id, bump) SELECT DISTINCT \(tag), v, \(relationship.hasInverse ? 1 : 0) \
                FROM unnest($1::int8[]) v ON CONFLICT (ent, id) DO UPDATE SET bump = GREATEST(l.bump, EXCLUDED.bump)
                """, [PostgreSQLStoreContext.idArray(ids)])
        }
        if let reused {
            answers.linkedCounts = reused.counts
        } else {
            let setTags = (setReferences.map(\.relationship) + rootLinks.map(\.relationship)).map { schema.entityTag($0.destination) }
            countLinked(linkedSQL, extraTags: setTags, into: &batch) { answers.linkedCounts = $0 }
        }
    }

    /// The roots' new ids, one per copy.
    func addRootIDs(sql: PostgreSQLGraphCopySQL, keepsWalkTable: Bool, answers: Answers, into batch: inout PostgreSQLStatementBatch) {
        let rootIDs = "SELECT new FROM \(PostgreSQLGraphCopySQL.mapTable) WHERE ent = $1::int4 AND old = $2 ORDER BY cp"
        let (connectionName, copies) = (connection.redactedURI, plan.copies)
        batch.add(rootIDs, [.int8(Int64(sql.rootTag)), .int8(plan.rootID)]) {
            $0.forEachRow { answers.cloneIDs.append($0.int64(0)) }
            // A walk table left in place must be this root's walk; the check of versions could
            // not tell another root's. Never expected: a safeguard for the bookkeeping of
            // `walkTableHolds`, which runs the clone again with the table filled.
            guard !keepsWalkTable || answers.cloneIDs.count == copies else {
                throw Self.sourceChanged("the walk table held another walk", sql: rootIDs, connection: connectionName)
            }
        }
    }

    /// A small walk is read back to be remembered (with its links, where they can be reused);
    /// one remembered that this run finds out of date (a moved version fails the check) is
    /// forgotten, and the run after it walks again.
    func addLearning(
        _ answered: Walked, linksToo: Bool, reuse: inout Reuse, answers: Answers, into batch: inout PostgreSQLStatementBatch
    ) {
        batch.add(PostgreSQLSourceWalks.read, []) {
            answers.learned = PostgreSQLSourceWalks.walk(rows: $0, objects: answered.objects, mayAppend: answered.mayAppend)
        }
        guard linksToo else { return }
        batch.add(PostgreSQLSourceWalks.readLinks, []) {
            answers.learned?.links = PostgreSQLSourceWalks.links(rows: $0, counts: answers.linkedCounts)
        }
        let written = Int64.random(in: 1...Int64.max)
        batch.add(PostgreSQLSourceWalks.writeToken, [.int8(written)])
        reuse.token = written
    }
}
