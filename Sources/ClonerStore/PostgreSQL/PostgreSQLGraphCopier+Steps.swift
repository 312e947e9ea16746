import ClonerModel
import Foundation

/// The copy's steps as `GraphCopier` takes them. A step after the walk adds its statements to
/// the batch the write step sends, in one pipeline for a clone that needs no answer in between.
extension PostgreSQLGraphCopier: GraphCopyBackend {
    /// A `set` on the root is checked by statements of its own (a value stored, the objects it
    /// names looked up), after the root's check. Without one, the check waits for the walk and
    /// both go out in one round trip.
    mutating func checkRoot(_ root: EntityDescription, withWalk: Bool) throws {
        if withWalk {
            pendingRootCheck = rootCheckBatch(root: root)
        } else {
            guard try run(Self.rootCheck(root: root, keepingWalk: false), [.int8(plan.rootID)]).rowCount > 0 else {
                throw StoreError.notFound(entity: root.name, id: plan.rootID)
            }
        }
    }

    /// The root's values stored as parameters, the statements built for the plan's shape (once
    /// per connection), the work tables.
    mutating func prepare(root: EntityDescription, rootValues perCopy: [[String: AttributeValue]], now: Date) throws {
        rootValues = try storedRootValues(root: root, perCopy: perCopy, now: now)
        let (plan, schema, values, sequences) = (plan, schema, rootValues, context.layout.idSequences)
        copySQL = session.graphCopySQL.cached(for: plan) {
            PostgreSQLGraphCopySQL(plan: plan, schema: schema, settings: values.settings, perCopyWalk: values.perCopyWalk, sequences: sequences)
        }
        try ensureWorkTables()
    }

    /// A walk remembered from an earlier clone of the source, written back with the rest of the
    /// copy, or the walk run now (with the root's check when it is still to run).
    mutating func walk() throws -> [Int: Int] {
        let sql = sql
        reuse = makeReuse(sql: sql, checksRootWithWalk: pendingRootCheck != nil)
        let answer = WalkAnswer()
        if let remembered = reuse.remembered {
            prepared = true
            batch = refill(from: remembered, reuse: &reuse, rootCheck: pendingRootCheck, answer: answer)
        } else {
            try walk(sql: sql, parameters: rootValues.parameters, rootCheck: pendingRootCheck, answer: answer)
        }
        walked = answer.walked
        answered = reuse.remembered == nil && !walked.intoMap ? walked : nil
        return walked.counts
    }

    /// The source's guard, then the map's fill (sent with the writes).
    mutating func fillMap(counts: [Int: Int]) throws {
        prepared = !walked.intoMap && walked.total <= Self.preparedObjectLimit
        let locatesCopy = plan.copies > 1 || !plan.perCopyRootValues.isEmpty
        delivery = Delivery(
            locatesCopy: locatesCopy, pipelined: !locatesCopy && plan.rootLinks.isEmpty,
            sourceGuard: session.sourceGuard(smallClone: prepared))
        addSourceGuardAndMap(sql: sql, walked: walked, guard: delivery.sourceGuard, parameters: rootValues.parameters, into: &batch)
    }

    /// The linked objects, the roots' new ids, and a small walk read back to be remembered (sent
    /// with the writes).
    mutating func link(setReferences: [GraphCopyReference], rootLinks: [GraphCopyReference]) throws {
        let sql = sql
        let linkedSQL = sql.linkedStatements(walked: Set(walked.counts.keys), mayAppend: walked.mayAppend)
        // Links found again only where not remembered, or where the copies join an ordered list
        // of a linked object, which must be locked before its end is read.
        reusesLinks = reuse.links != nil && linkedSQL.orderedTags.isEmpty
        addLinks(
            linkedSQL, reused: reusesLinks ? reuse.links : nil, setReferences: setReferences, rootLinks: rootLinks,
            parameters: rootValues.parameters, answers: answers, into: &batch)
        addRootIDs(sql: sql, keepsWalkTable: reuse.keepsWalkTable, answers: answers, into: &batch)
        if let answered, reuse.key != nil, prepared, walked.rows <= PostgreSQLSourceWalks.rowLimit {
            addLearning(
                answered, linksToo: pendingRootCheck != nil && linkedSQL.orderedTags.isEmpty, reuse: &reuse, answers: answers, into: &batch)
        }
    }

    mutating func write(root: EntityDescription, rootLinks: [GraphCopyReference], counts: [Int: Int], progress: GraphCopyProgress) throws {
        let writes = Writes(sql: sql, root: root, rootLinks: rootLinks, walked: walked, parameters: rootValues.parameters, progress: progress)
        wrote = true
        do {
            try write(writes, delivery: delivery, batch: batch)
        } catch {
            throw failure(error, delivery: delivery)
        }
    }

    mutating func finish(counts: [Int: Int]) throws -> (cloneIDs: [Int64], linked: [Int: Int], ids: [[String: [Int64: Int64]]]?) {
        let ids = try finish(sql: sql, walked: walked, reuse: reuse, reusesLinks: reusesLinks, answers: answers)
        return (answers.cloneIDs, answers.linkedCounts, ids)
    }

    /// Unprepared: a dry run's queries run once.
    mutating func forEachCopyRow(_ query: String, _ body: (any SQLRow) throws -> Void) throws {
        statementCount += 1
        try connection.query(query, rootValues.parameters).forEachRow { try body($0) }
    }

    /// A copy that failed once it sent its writes leaves nothing to the COMMIT, and forgets the
    /// remembered walk it used: the run after walks again.
    mutating func end(copied: Bool) {
        guard wrote, !copied else { return }
        leave(CommitWork(walkTableAtCommit: .some(nil)), reuse: reuse, learned: nil, copied: false)
    }
}
