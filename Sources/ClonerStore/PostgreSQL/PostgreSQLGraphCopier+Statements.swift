import ClonerModel

/// The copier's statements after the walk, collected into batches, and how a batch runs.
extension PostgreSQLGraphCopier {
    /// Step 4 on: the rows, the join rows and the followed attributes.
    func addWrites(
        sql: PostgreSQLGraphCopySQL, steps: [PostgreSQLGraphCopySQL.EntityStep], counts: [Int: Int], mayAppend: Set<Int>,
        parameters: [PostgreSQLValue], progress: GraphCopyProgress, into batch: inout PostgreSQLStatementBatch
    ) {
        for lock in sql.suffixLocks { batch.add(lock, []) }
        for step in steps {
            // The second insert only writes objects that join an original's list: none came.
            let appends = step.keepsPlaceArrivals == nil || mayAppend.contains(step.tag)
            for insert in appends ? step.inserts : Array(step.inserts.prefix(1)) { batch.add(insert, parameters) }
            let written = counts[step.tag] ?? 0
            batch.afterwards { progress.addWritten(written) }
        }
        for insert in sql.joinInserts { batch.add(insert, parameters) }
        for follow in sql.follows {
            for statement in follow.statements { batch.add(statement, parameters) }
        }
    }

    /// The linked objects' version steps, for the entities the linked lock found objects of
    /// (`linked`, objects per entity; none when the copies link nothing), in entity order. They go
    /// out with the COMMIT: the first lock that concurrent clones of one template queue for is
    /// then held only while the step runs and the commit is flushed. An entity with one linked
    /// object (a template's one tag) steps it with the UPDATE alone: the lock in `_id` order
    /// first is there for two clones stepping the same several rows, and the UPDATE of a single
    /// row waits its turn behind another clone's and then steps the row as that one left it.
    func versionStepsAtCommit(sql: PostgreSQLGraphCopySQL, linked: [Int: Int]) -> [PostgreSQLConnection.PipelinedStatement] {
        var statements: [PostgreSQLConnection.PipelinedStatement] = []
        for (tag, objects) in linked.sorted(by: { $0.key < $1.key }) {
            let step = sql.versionSteps[tag] ?? PostgreSQLGraphCopySQL.versionStep(entity: schema.model.entities[tag].name)
            for statement in objects == 1 ? step.suffix(1) : step[...] {
                statements.append(.init(statement, [.int8(Int64(tag))], isPrepared: prepared))
            }
        }
        return statements
    }

    /// The first copy (0-based) whose rows repeat a value of `attributes` of `entity`. The failed
    /// writes are rolled back to the savepoint first — an aborted transaction answers no query —
    /// while the map, filled before it, is still there to compare the copies' values with.
    mutating func firstClashingCopy(entity: String, attributes: [String]) throws -> Int? {
        let copied = sql.entitySteps.contains { $0.name == entity }
        guard let clash = sql.clashingCopyQuery(entity: entity, attributes: attributes, copied: copied, rowsKept: false) else { return nil }
        statementCount += 1
        try connection.execute("ROLLBACK TO SAVEPOINT \"_clone_write\"")
        let result = try query(clash, rootValues.parameters)
        guard result.rowCount > 0, let copy = result[0].optionalInt64(0) else { return nil }
        return Int(copy) - 1
    }

    /// A retryable failure: the source changed between the walk and its lock or check.
    static func sourceChanged(_ detail: String, sql: String, connection: String) -> PostgreSQLError {
        PostgreSQLError(
            kind: .server, code: .serializationFailure,
            message: "the clone's source may have changed while it was being copied (\(detail)); the copy runs again",
            sql: sql, connection: connection)
    }

    /// Compares the walked objects' versions with the walk's, locking them `FOR SHARE` first
    /// (`PostgreSQLGraphCopySQL.sourceLock`: equal versions then mean the locked rows are the
    /// source, and stay so until commit) or not (`sourceCheck`, after the clone's last read).
    func compareSourceVersions(
        sql: PostgreSQLGraphCopySQL, walked: Set<Int>, locking: Bool, fromMap: Bool = false, into batch: inout PostgreSQLStatementBatch
    ) {
        let connection = connection.redactedURI
        let lock = locking ? sql.sourceLock(walked: walked, fromMap: fromMap) : sql.sourceCheck(walked: walked)
        batch.add(lock, []) { locked in
            let (lockedRows, walked, moved) = (locked[0].int64(0), locked[0].int64(1), locked[0].int64(2))
            guard lockedRows == walked else {
                throw Self.sourceChanged("\(walked - lockedRows) of \(walked) objects were deleted", sql: lock, connection: connection)
            }
            guard moved == 0 else {
                throw Self.sourceChanged("\(moved) of \(walked) objects were changed", sql: lock, connection: connection)
            }
        }
    }

    /// Counts what the copies link, locking the objects whose ordered lists gain them (see
    /// `PostgreSQLGraphCopySQL.linkedLockSQL`); `counts` gets the linked objects per entity once
    /// the statement has run.
    func countLinked(
        _ linkedSQL: PostgreSQLGraphCopySQL.LinkedStatements, extraTags: [Int],
        into batch: inout PostgreSQLStatementBatch, counts: @escaping ([Int: Int]) -> Void
    ) {
        let connection = connection.redactedURI
        let statement =
            extraTags.isEmpty
            ? linkedSQL.lock
            : PostgreSQLGraphCopySQL.linkedLockSQL(
                tags: Array(linkedSQL.linkableTags.union(extraTags)),
                exclusiveTags: linkedSQL.orderedTags.union(extraTags), schema: schema)
        batch.add(statement, []) { result in
            var linkedCounts: [Int: Int] = [:]
            var locked: Int64 = 0
            result.forEachRow {
                linkedCounts[Int($0.int64(0))] = Int($0.int64(1))
                locked = $0.int64(2)
            }
            let linked = linkedCounts.values.reduce(0, +)
            guard locked == Int64(linked) else {
                throw Self.sourceChanged(
                    "\(Int64(linked) - locked) of \(linked) linked objects were deleted", sql: statement,
                    connection: connection)
            }
            counts(linkedCounts)
        }
    }

    /// Runs a batch's statements in order, each one's reader on its rows: one by one (a reader
    /// that throws stops the rest), or in one pipeline whose outcomes are then read in the same
    /// order (a failed check of an earlier statement is what is thrown, before a later error).
    /// In a pipeline an action (the progress of the rows written) runs as the result of the
    /// statement before it arrives, not once the last has: a large clone's progress moves entity
    /// by entity.
    mutating func run(_ batch: PostgreSQLStatementBatch, pipelined: Bool) throws {
        if pipelined {
            let statements = batch.statements.map { PostgreSQLConnection.PipelinedStatement($0.sql, $0.values, isPrepared: prepared) }
            statementCount += statements.count
            // The actions that follow each statement (by its index), and those before the first.
            var following: [[() -> Void]] = Array(repeating: [], count: statements.count)
            var leading: [() -> Void] = []
            var index = -1
            for entry in batch.entries {
                switch entry {
                case .statement: index += 1
                case .action(let action): if index < 0 { leading.append(action) } else { following[index].append(action) }
                }
            }
            for action in leading { action() }
            // Results reported one by one cost the server a send per statement: worth it for a
            // large clone a job watches, not for a small one over in milliseconds.
            let answered: ((Int) -> Void)? = prepared ? nil : { index in for action in following[index] { action() } }
            var outcomes = try connection.pipeline(statements, answered: answered).makeIterator()
            if answered == nil { for actions in following { for action in actions { action() } } }
            for entry in batch.entries {
                guard case .statement(_, _, let reader) = entry else { continue }
                guard let outcome = outcomes.next() else { preconditionFailure("one outcome per statement") }
                // Read before the reader is looked at: `reader?(…)` would skip its argument.
                let result = try outcome.get()
                try reader?(result)
            }
        } else {
            for entry in batch.entries {
                switch entry {
                case .statement(let sql, let values, let reader):
                    let result = try query(sql, values)
                    try reader?(result)
                case .action(let action):
                    action()
                }
            }
        }
    }
}
