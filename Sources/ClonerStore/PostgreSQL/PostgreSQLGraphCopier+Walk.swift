import ClonerModel

/// The walk: remembered from an earlier clone of the same source, or run — first in one prepared
/// statement that stops at a limit, then, past it, again into the map.
extension PostgreSQLGraphCopier {
    /// What the walk found, all copies together (a walk shared by all copies counts once each).
    struct Walked {
        /// Objects per entity, all copies together.
        var counts: [Int: Int] = [:]
        /// Objects per entity of one walk, as the walk statement answered them.
        var objects: [Int: Int] = [:]
        /// Rows the walk made.
        var rows = 0
        /// Entities of two-insert steps with objects that may join an original's list (see
        /// `EntityStep.keepsPlaceArrivals`).
        var mayAppend: Set<Int> = []
        /// Rows this clone writes to the walk table (a walk into the map writes none).
        var tableRows = 0
        /// Whether it walked again into the map (`PostgreSQLGraphCopySQL.walkIntoMap`).
        var intoMap = false

        var total: Int { counts.values.reduce(0, +) }
    }

    /// Where a walk statement's answer is read to, from inside the batch's readers.
    final class WalkAnswer {
        var walked = Walked()

        /// Reads a walk's answer (`PostgreSQLGraphCopySQL.walkAnswers`) into the counts.
        func read(_ result: PostgreSQLResult, copiesPerObject: Int) {
            (walked.counts, walked.mayAppend, walked.objects) = ([:], [], [:])
            result.forEachRow {
                let entity = Int($0.int64(0))
                if entity == -1 {
                    walked.rows = Int($0.int64(1))
                } else if entity < -1 {
                    walked.mayAppend.insert(-2 - entity)
                } else {
                    walked.objects[entity] = Int($0.int64(1))
                    walked.counts[entity] = Int($0.int64(1)) * copiesPerObject
                }
            }
        }
    }

    /// A walk this session remembers from an earlier clone of the same source, which stands for a
    /// new one on the transaction's first run (`PostgreSQLSourceWalks`), and what of it is kept.
    struct Reuse {
        let key: PostgreSQLSourceWalks.Key?
        let remembered: PostgreSQLSourceWalks.Walk?
        /// Its links, reused with it where they were kept (`PostgreSQLSourceWalks.Links`), for a
        /// clone that sets nothing on the root (its root check still to run).
        let links: PostgreSQLSourceWalks.Links?
        /// The walk and linked tables still hold that walk and its links when the session's last
        /// committed clone left them there (and this transaction's root check has not emptied them
        /// yet): then they stay, and neither this clone's DELETE nor a fill touches them.
        let keepsWalkTable: Bool
        /// The token beside the tables when they are to be kept after this clone.
        var token: Int64?
    }

    func makeReuse(sql: PostgreSQLGraphCopySQL, checksRootWithWalk: Bool) -> Reuse {
        let key = sql.perCopyWalk ? nil : PostgreSQLSourceWalks.Key(walk: sql.walk, rootID: plan.rootID)
        let remembered = session.mayUseRememberedWalks ? key.flatMap { session.sourceWalks[$0] } : nil
        let links = checksRootWithWalk ? remembered?.links : nil
        let held = session.walkTableHolds(on: connection)
        let keepsWalkTable = links != nil && held != nil && held?.key == key
        return Reuse(key: key, remembered: remembered, links: links, keepsWalkTable: keepsWalkTable, token: keepsWalkTable ? held?.token : nil)
    }

    /// The batch that writes a remembered walk (and its links) back to the work tables, with the
    /// root's check first; nothing of them when the tables still hold them.
    func refill(
        from remembered: PostgreSQLSourceWalks.Walk, reuse: inout Reuse, rootCheck: ((Int64?) -> PostgreSQLStatementBatch)?,
        answer: WalkAnswer
    ) -> PostgreSQLStatementBatch {
        var batch = rootCheck?(reuse.token) ?? PostgreSQLStatementBatch()
        if !reuse.keepsWalkTable {
            batch.add(PostgreSQLSourceWalks.fill, remembered.columns)
            if let links = reuse.links {
                batch.add(PostgreSQLSourceWalks.fillLinks, links.columns)
                let written = Int64.random(in: 1...Int64.max)
                batch.add(PostgreSQLSourceWalks.writeToken, [.int8(written)])
                reuse.token = written
            }
        }
        answer.walked.counts = remembered.objects.mapValues { $0 * plan.copies }
        answer.walked.rows = remembered.rows
        answer.walked.tableRows = reuse.keepsWalkTable ? 0 : remembered.rows
        answer.walked.mayAppend = remembered.mayAppend
        return batch
    }

    /// The walk, with the root's check first when it is still to run. A walk that stopped at its
    /// first limit, with no more objects than allowed so far, is a large clone's (or one's with
    /// objects reached by many edges): it walks again, into the map
    /// (`PostgreSQLGraphCopySQL.walkIntoMap`), with its statements planned for the rows it has.
    mutating func walk(
        sql: PostgreSQLGraphCopySQL, parameters: [PostgreSQLValue], rootCheck: ((Int64?) -> PostgreSQLStatementBatch)?,
        answer: WalkAnswer
    ) throws {
        let copiesPerObject = sql.perCopyWalk ? 1 : plan.copies
        // The first walk runs prepared whatever the clone's size: its plan follows the
        // relationships' indexes, not the number of rows it meets.
        prepared = true
        // The root's check, when still to run, goes first in the same round trip: it empties
        // the work tables the walk fills, and a missing root is reported before anything else.
        var batch = rootCheck?(nil) ?? PostgreSQLStatementBatch()
        batch.add(PostgreSQLGraphCopySQL.firstWalkMemory, [])
        batch.add(sql.walk, parameters) { answer.read($0, copiesPerObject: copiesPerObject) }
        batch.add(PostgreSQLGraphCopySQL.afterFirstWalk, [])
        try run(batch, pipelined: true)
        answer.walked.tableRows = answer.walked.rows
        // No row, not even the root's (whose check came first): a root too large to walk
        // first (`PostgreSQLGraphCopySQL.walk`).
        let large = answer.walked.rows == 0
        guard large || answer.walked.rows >= sql.firstWalkLimit,
            sql.firstWalkLimit < sql.walkRowLimit || answer.walked.total <= plan.maximumObjects
        else { return }
        answer.walked.intoMap = true
        prepared = false
        // Stopped at the object limit's rows with no more objects than allowed: walked
        // again to the end, where the objects are counted before the map is written.
        let passes = sql.firstWalkLimit < sql.walkRowLimit && sql.walkRowLimit != Int.max ? [true, false] : [false]
        for (pass, limited) in passes.enumerated() {
            var batch = PostgreSQLStatementBatch()
            if pass == 0 { for setting in PostgreSQLGraphCopySQL.plannerDefaults { batch.add(setting, []) } }
            batch.add(sql.walkIntoMap(limited: limited, dryRun: plan.dryRun), parameters) {
                answer.read($0, copiesPerObject: copiesPerObject)
            }
            try run(batch, pipelined: batch.statements.count > 1)
            guard limited, answer.walked.rows >= sql.walkRowLimit, answer.walked.total <= plan.maximumObjects else { break }
        }
    }
}
