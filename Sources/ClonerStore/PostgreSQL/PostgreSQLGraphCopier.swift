import ClonerModel
import Foundation

/// Runs a `GraphCopyPlan` on PostgreSQL as set-based SQL (`PostgreSQLGraphCopySQL`) inside the
/// caller's READ COMMITTED write transaction: nothing left behind on any failure, and statements
/// per clone that grow with the model, never with the objects or the copies. Blobs are copied by
/// INSERT … SELECT inside the server and never reach Swift.
///
/// One consistent source without a snapshot-wide isolation level: the walk finds the objects and
/// reads their versions, and every change of an object steps its version (a change of a
/// relationship, both ends'). A small clone's first run compares them once more after its last
/// read of the source (`sourceCheck`): all equal, nothing of the source changed in between, and
/// every statement read it as the walk did — while no clone of a hot template locks its rows, and
/// an edit of the template never waits for clones. A large clone, and any run after the first,
/// locks every walked object `FOR SHARE` and compares the versions before its first write
/// (`sourceLock`): once they agree, no walked row can change until the clone commits, so a
/// template edited without pause is still copied. A version that moved, in either way, fails the
/// copy with a serialization failure, which the store's write runs again from the start.
/// The objects the copies link are locked where their versions step, with the commit, or where
/// their ordered lists gain the copies, in one fixed order: concurrent clones and edits of the
/// same shared objects wait for each other instead of failing as they would under REPEATABLE
/// READ, and otherwise hold no lock on them side by side (`PostgreSQLGraphCopySQL.linkedLockSQL`).
///
/// Scratch space is three temporary tables per session (`workTablesDDL`), created once when a
/// write first runs on the connection, outside any transaction: no DDL per clone. Each clone
/// empties them with `DELETE` in its first statement rather than letting PostgreSQL empty them
/// at commit (`ON COMMIT DELETE ROWS`): that commit-time truncation invalidates every cached plan
/// reading them, and replanning a small clone's statements costs the server more than executing
/// them. A `DELETE` leaves dead rows, which nothing vacuums in a temporary table and every
/// later scan of it reads, so a large clone, and a small one once the session's clones have left
/// `truncateRows` rows since the last one, ends with a `TRUNCATE`.
/// Statements naming the tables run prepared for a small clone and unprepared for a large one
/// (`preparedObjectLimit`): their best plans depend on how many rows the clone has.
///
/// The store may run the whole transaction again after a serialization failure or deadlock, so
/// this keeps nothing between runs: the progress counters start from zero.
struct PostgreSQLGraphCopier {
    let context: PostgreSQLStoreContext
    let plan: GraphCopyPlan

    private var connection: PostgreSQLConnection { context.connection }
    private var schema: StoreSchema { context.schema }

    /// Statements sent per clone, for the benchmark's "statements per clone".
    private(set) var statementCount = 0

    init(context: PostgreSQLStoreContext, plan: GraphCopyPlan) {
        self.context = context
        self.plan = plan
    }

    /// Clones of at most this many objects run their statements prepared (cached per session),
    /// which saves parsing and planning them; a larger clone plans each statement for the rows it
    /// has (`ANALYZE`d scratch tables), so a plan made for a handful of rows is never used for a
    /// hundred thousand.
    static let preparedObjectLimit = 1_000

    /// How long a small clone's lock of its source waits for rows an edit holds (see `copy`):
    /// an edit holds them for milliseconds; longer is a deadlock in the making.
    static let sourceLockTimeout = "100ms"

    /// Rows the clones on one session may leave dead in a work table (walk, map, linked rows or
    /// walk tokens) before one ends with its `TRUNCATE`: only a truncation (or a vacuum, not
    /// allowed in a transaction) gives them back. Both ways cost: every scan of a work table reads
    /// its dead rows, and a truncation invalidates the session's cached plans (a small clone's
    /// statements are planned again). Counted in rows rather than clones, so the dead rows every
    /// scan reads stay bounded whatever the clones' size: a 5-object clone truncates after many
    /// clones, one of some hundreds of objects every few. Counted per table: each table truncated
    /// costs file work even when empty, so a large clone truncates its map and walk, and leaves
    /// its few linked rows to the next clone's `DELETE`.
    static let truncateRows = 1_000

    /// Set once the walk has counted the objects (`preparedObjectLimit`).
    private var prepared = false

    /// One statement on the scratch tables: prepared for a small clone, unprepared for a large one.
    /// Internal for the copier's extensions.
    @discardableResult
    mutating func query(_ sql: String, _ values: [PostgreSQLValue]) throws -> PostgreSQLResult {
        statementCount += 1
        return prepared ? try connection.cachedQuery(sql, values) : try connection.query(sql, values)
    }

    /// One statement on the store's own tables (prepared and cached per connection).
    @discardableResult
    private mutating func run(_ sql: String, _ values: [PostgreSQLValue]) throws -> PostgreSQLResult {
        statementCount += 1
        return try context.run(sql, values)
    }

    mutating func run(now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        precondition(plan.copies >= 1, "a clone makes at least one copy")
        precondition(
            plan.perCopyRootValues.isEmpty || plan.perCopyRootValues.count == plan.copies,
            "\(plan.perCopyRootValues.count) per-copy values for \(plan.copies) copies")
        // A run after a retried transaction starts the counters again.
        progress.setPlanned(0)
        progress.addWritten(-progress.written)
        guard let root = schema.model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        let copies = plan.copies

        // The root's check also sets planner settings for the rest of this transaction (no
        // extra round trip): no JIT — the copy's statements are estimated far above the JIT
        // threshold (a recursive walk is guessed at millions of rows) and compiling them costs
        // more than it saves on index lookups and inserts. (A large clone's room for sorts and
        // hashes comes after its walk, `PostgreSQLGraphCopySQL.plannerDefaults`.)
        // Its CTEs empty the work tables of the session's previous clone (see the type's comment).
        // Generic plans, until the walk shows a large clone (`PostgreSQLGraphCopySQL
        // .plannerDefaults`): prepared statements are then planned once per session, where
        // PostgreSQL would otherwise keep choosing custom plans for some of them at every run (the
        // walk and the map's fill), planning them again each time.
        // And joins by nested loops, also until then: a small clone's statements meet at most a
        // thousand objects, which index lookups find at a cost bounded by the clone, where a hash
        // join reads the whole of a store table. PostgreSQL chose hash joins over whole tables for
        // the plans a session keeps (the work tables' rows unknown to it), so that a clone cost
        // more as the store grew (a 5-object clone's insert of its note read every note).
        // It leaves the walk and linked tables as they are when they hold the walk and links the
        // clone reuses (`copy`), and then reads the token beside them, to tell they are what this
        // connection's last commit left (`PostgreSQLConnection.walkTableHolds`).
        func rootCheck(keepingWalk: Bool) -> String {
            let emptied =
                keepingWalk
                ? "WITH "
                : "WITH \"_empty_walk\" AS (DELETE FROM \(PostgreSQLGraphCopySQL.walkTable)), "
                    + "\"_empty_linked\" AS (DELETE FROM \(PostgreSQLGraphCopySQL.linkedTable)), "
                    + "\"_empty_token\" AS (DELETE FROM \(PostgreSQLSourceWalks.tokenTable)), "
            let token = keepingWalk ? ", (SELECT max(token) FROM \(PostgreSQLSourceWalks.tokenTable))" : ""
            return emptied + """
                "_empty_map" AS (DELETE FROM \(PostgreSQLGraphCopySQL.mapTable)) \
                SELECT set_config('jit', 'off', true), \
                set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_hashjoin', 'off', true), \
                set_config('enable_mergejoin', 'off', true)\(token) FROM \(quoted(root.name)) WHERE "_id" = $1
                """
        }
        let rootID = plan.rootID
        let missingRoot = StoreError.notFound(entity: root.name, id: rootID)
        // A `set` on the root is checked below with statements of its own (a value stored, the
        // objects it names looked up), after the root's check as ever. Without one, the check
        // waits for the walk and both go out in one round trip (`copy`).
        // Given the kept walk's token, it leaves the walk where it is (`copy`).
        var pendingRootCheck: ((Int64?) -> PostgreSQLStatementBatch)?
        if plan.perCopyRootValues.isEmpty && plan.rootValues.isEmpty && plan.rootLinks.isEmpty {
            let connection = connection
            pendingRootCheck = { token in
                var batch = PostgreSQLStatementBatch()
                let sql = rootCheck(keepingWalk: token != nil)
                batch.add(sql, [.int8(rootID)]) { result in
                    guard result.rowCount > 0 else { throw missingRoot }
                    // Rows another connection wrote on this server session, or none: the clone
                    // runs again and writes them.
                    if let token, result[0].optionalInt64(4) != token {
                        connection.walkTableHolds = nil
                        throw Self.sourceChanged("the work tables held another walk", sql: sql, connection: connection.redactedURI)
                    }
                }
                return batch
            }
        } else {
            guard try run(rootCheck(keepingWalk: false), [.int8(rootID)]).rowCount > 0 else { throw missingRoot }
        }

        // The root's values per copy: the request's own, with each copy's merged over them.
        let perCopy: [[String: AttributeValue]] = (0..<copies).map { index in
            plan.perCopyRootValues.isEmpty ? plan.rootValues : plan.rootValues.merging(plan.perCopyRootValues[index]) { _, own in own }
        }
        var parameters: [PostgreSQLValue] = [
            .int8(plan.rootID),
            try PostgreSQLStoreContext.parameter(.date(now), entity: root.name, attribute: "now"),
            .int8(Int64(copies)),
        ]
        var settings: [String: PostgreSQLGraphCopySQL.Setting] = [:]
        var setReferences: [(relationship: RelationshipDescription, ids: [Int64])] = []
        var perCopyWalk = false
        let names = Set(perCopy.flatMap(\.keys)).sorted()
        for name in names {
            let flags = perCopy.map { $0[name] != nil }
            var values: [PostgreSQLValue] = []
            let element: PostgreSQLValue.ArrayElement
            if let attribute = root.attribute(named: name) {
                element = PostgreSQLStoreContext.arrayElement(attribute.type)
                for copy in perCopy {
                    // A binary `set` value is stored as a blob and the copies take its key.
                    values.append(try context.storedValue(copy[name] ?? .null, entity: root.name, attribute: name))
                }
            } else {
                guard let relationship = root.relationship(named: name) else { preconditionFailure("\(root.name) has no property \(name)") }
                element = .int8
                var ids: [Int64] = []
                for copy in perCopy {
                    if case .integer(let id)? = copy[name] {
                        values.append(.int8(id))
                        ids.append(id)
                    } else {
                        values.append(.null)
                    }
                }
                if !ids.isEmpty { setReferences.append((relationship, ids)) }
                if flags.contains(false) { perCopyWalk = true }
            }
            settings[name] = .init(values: parameters.count + 1, flags: parameters.count + 2, inEveryCopy: !flags.contains(false))
            parameters.append(.array(element: element, values))
            parameters.append(.array(element: .bool, flags.map { .bool($0) }))
        }
        // A to-one the plan sets on the root: checked to exist, and counted as linked.
        for reference in setReferences {
            let destination = reference.relationship.destination
            let wanted = Set(reference.ids)
            var found: Set<Int64> = []
            try run("SELECT \"_id\" FROM \(quoted(destination)) WHERE \"_id\" = ANY($1)", [PostgreSQLStoreContext.idArray(wanted.sorted())])
                .forEachRow { found.insert($0.int64(0)) }
            if let missing = reference.ids.first(where: { !found.contains($0) }) {
                let name = reference.relationship.name
                let copy = plan.perCopyRootValues.firstIndex { $0[name] == .integer(missing) }
                throw StoreError.missingRootLink(relationship: name, copy: copy, message: "no \(destination) with _id \(missing)")
            }
        }
        let rootLinks = plan.rootLinks.sorted(by: { $0.key < $1.key }).map { (relationship: root.relationship(named: $0.key)!, ids: $0.value) }
        for (relationship, ids) in rootLinks where !ids.isEmpty {
            let found = try run(
                "SELECT count(*) FROM \(quoted(relationship.destination)) WHERE \"_id\" = ANY($1)",
                [PostgreSQLStoreContext.idArray(ids)])[0].int64(0)
            if found != ids.count {
                throw StoreError.missingRootLink(relationship: relationship.name, copy: nil, message: "lists an _id that is not a \(relationship.destination)")
            }
        }

        let sequences = try identitySequences()
        let sql = connection.graphCopySQL.cached(for: plan) {
            PostgreSQLGraphCopySQL(plan: plan, schema: schema, settings: settings, perCopyWalk: perCopyWalk, sequences: sequences)
        }
        try ensureWorkTables()

        do {
            return try copy(
                sql: sql, root: root, rootLinks: rootLinks, setReferences: setReferences,
                parameters: parameters, rootCheck: pendingRootCheck, progress: progress)
        } catch let error as PostgreSQLError where error.isUniqueViolation {
            throw PostgreSQLStore.translate(error, layout: context.layout)
        }
    }

    private mutating func copy(
        sql: PostgreSQLGraphCopySQL, root: EntityDescription,
        rootLinks: [(relationship: RelationshipDescription, ids: [Int64])],
        setReferences: [(relationship: RelationshipDescription, ids: [Int64])],
        parameters: [PostgreSQLValue], rootCheck: ((Int64?) -> PostgreSQLStatementBatch)?, progress: GraphCopyProgress
    ) throws -> GraphCopyResult {
        let copies = plan.copies
        let map = PostgreSQLGraphCopySQL.mapTable, linked = PostgreSQLGraphCopySQL.linkedTable
        // Objects per entity, all copies together (a walk shared by all copies counts once each).
        var counts: [Int: Int] = [:]
        var walked = 0
        // Entities of two-insert steps with objects that may join an original's list (see
        // `EntityStep.keepsPlaceArrivals`).
        var mayAppend: Set<Int> = []
        // A walk this session remembers from an earlier clone of the same source stands for a new
        // one on the transaction's first run, which checks the source's versions after its last
        // read (`PostgreSQLSourceWalks`): the walk table is written from it in the same round
        // trip as the rest of the copy.
        let walkKey = sql.perCopyWalk ? nil : PostgreSQLSourceWalks.Key(walk: sql.walk, rootID: plan.rootID)
        let remembered = context.attempt == 1 ? walkKey.flatMap { connection.sourceWalks[$0] } : nil
        // What the walk statement answered, kept to remember the walk once the copy has run.
        var answered: (objects: [Int: Int], mayAppend: Set<Int>)?
        var batch = PostgreSQLStatementBatch()
        // Rows this clone writes to the walk table (a walk into the map writes none).
        var walkTableRows = 0
        // Its links are reused with it where they were kept (`PostgreSQLSourceWalks.Links`), for a
        // clone that sets nothing on the root (its root check still to run).
        let rememberedLinks = rootCheck != nil ? remembered?.links : nil
        // The walk and linked tables still hold that walk and its links when the session's last
        // committed clone left them there (and this transaction's root check has not emptied them
        // yet): then they stay, and neither this clone's DELETE nor a fill touches them.
        let held = connection.walkTableHolds
        let keepsWalkTable = rememberedLinks != nil && held != nil && held?.key == walkKey
        // The token beside the tables when they are to be kept after this clone.
        var token = keepsWalkTable ? held?.token : nil
        if let remembered {
            prepared = true
            batch = rootCheck?(token) ?? PostgreSQLStatementBatch()
            if !keepsWalkTable {
                batch.add(PostgreSQLSourceWalks.fill, remembered.columns)
                if let rememberedLinks {
                    batch.add(PostgreSQLSourceWalks.fillLinks, rememberedLinks.columns)
                    let written = Int64.random(in: 1...Int64.max)
                    batch.add(PostgreSQLSourceWalks.writeToken, [.int8(written)])
                    token = written
                }
            }
            counts = remembered.objects.mapValues { $0 * copies }
            walked = remembered.rows
            walkTableRows = keepsWalkTable ? 0 : remembered.rows
            mayAppend = remembered.mayAppend
        }
        // Reads a walk's answer (`PostgreSQLGraphCopySQL.walkAnswers`) into the counts.
        var objects: [Int: Int] = [:]
        let readWalk = { (result: PostgreSQLResult) in
            (counts, mayAppend, objects) = ([:], [], [:])
            result.forEachRow {
                let entity = Int($0.int64(0))
                if entity == -1 {
                    walked = Int($0.int64(1))
                } else if entity < -1 {
                    mayAppend.insert(-2 - entity)
                } else {
                    objects[entity] = Int($0.int64(1))
                    counts[entity] = Int($0.int64(1)) * (sql.perCopyWalk ? 1 : copies)
                }
            }
        }
        // A walk that stopped at its first limit, with no more objects than allowed so far, is
        // a large clone's (or one's with objects reached by many edges): it walks again, into
        // the map (`PostgreSQLGraphCopySQL.walkIntoMap`), with its statements planned for the
        // rows it has.
        var walkedIntoMap = false
        if remembered == nil {
            // The first walk runs prepared whatever the clone's size: its plan follows the
            // relationships' indexes, not the number of rows it meets.
            prepared = true
            // The root's check, when still to run, goes first in the same round trip: it empties
            // the work tables the walk fills, and a missing root is reported before anything else.
            var batch = rootCheck?(nil) ?? PostgreSQLStatementBatch()
            batch.add(PostgreSQLGraphCopySQL.firstWalkMemory, [])
            batch.add(sql.walk, parameters, reader: readWalk)
            batch.add(PostgreSQLGraphCopySQL.afterFirstWalk, [])
            try run(batch, pipelined: true)
            answered = (objects, mayAppend)
            walkTableRows = walked
            // No row, not even the root's (whose check came first): a root too large to walk
            // first (`PostgreSQLGraphCopySQL.walk`).
            let large = walked == 0
            if large || walked >= sql.firstWalkLimit, sql.firstWalkLimit < sql.walkRowLimit || counts.values.reduce(0, +) <= plan.maximumObjects {
                walkedIntoMap = true
                answered = nil
                prepared = false
                // Stopped at the object limit's rows with no more objects than allowed: walked
                // again to the end, where the objects are counted before the map is written.
                let passes = sql.firstWalkLimit < sql.walkRowLimit && sql.walkRowLimit != Int.max ? [true, false] : [false]
                for (pass, limited) in passes.enumerated() {
                    var batch = PostgreSQLStatementBatch()
                    if pass == 0 { for setting in PostgreSQLGraphCopySQL.plannerDefaults { batch.add(setting, []) } }
                    batch.add(sql.walkIntoMap(limited: limited, dryRun: plan.dryRun), parameters, reader: readWalk)
                    try run(batch, pipelined: batch.statements.count > 1)
                    guard limited, walked >= sql.walkRowLimit, counts.values.reduce(0, +) <= plan.maximumObjects else { break }
                }
            }
        }
        let total = counts.values.reduce(0, +)
        guard total <= plan.maximumObjects else { throw StoreError.tooLarge(objects: total, limit: plan.maximumObjects) }
        prepared = !walkedIntoMap && total <= Self.preparedObjectLimit
        progress.setPlanned(total)
        let steps = sql.entitySteps.filter { (counts[$0.tag] ?? 0) > 0 }
        let setTags = (setReferences.map(\.relationship) + rootLinks.map(\.relationship)).map { schema.entityTag($0.destination) }
        // Many copies write inside a savepoint: a unique violation aborts what follows it in the
        // transaction, and naming the copy that clashed needs one more query.
        let locatesCopy = copies > 1 || !plan.perCopyRootValues.isEmpty
        // A clone sends all its statements after the walk in one round trip, unprepared for a
        // large one; only the root's replaced lists, whose statements depend on what an earlier
        // one found, and a clone that must name the copy that clashed, go statement by statement.
        // The server plans each unprepared statement when it comes to it, after the `ANALYZE`
        // before it has run.
        let pipelined = !locatesCopy && rootLinks.isEmpty
        // On the transaction's first two runs a small clone locks nothing of its source: it
        // checks the walk's versions after its last read instead (`PostgreSQLGraphCopySQL
        // .sourceCheck`), so that clones of one template do not each lock its rows. A change
        // found there — or any error from a write, which reads made across a change could have
        // caused — runs the transaction again, and every run after the second locks the source
        // first, so a template edited without pause is still copied, at most three times. Two
        // runs, because the first may use a remembered walk that any edit since the session's
        // last clone of the source has put out of date: that is no sign of an edit during the
        // clone, and the lock, whose order is not an editor's, can deadlock with one (tried: a
        // template edited as fast as four threads cloned it, hundreds of deadlocks at one second
        // each). A large clone locks first: found only at its end, a change would cost it all
        // its work, and the store runs a write again only while its writer wait lasts (a clone of
        // 100,000 items takes longer than that).
        let checksSourceLast = prepared && context.attempt <= 2

        let waitsBriefly = prepared && !checksSourceLast
        if prepared {
            // A small clone that locks its source (its third run) waits at most
            // `sourceLockTimeout` for the rows: an edit of the template locks its rows in its own
            // order (children, then the parent whose version steps), and a clone waiting for one
            // of them while holding another would deadlock with it, which PostgreSQL tells only
            // after a second. Timed out, the clone runs again and the edit goes on.
            if waitsBriefly {
                batch.add("SELECT set_config('lock_timeout', '\(Self.sourceLockTimeout)', true)", [])
                compareSourceVersions(sql: sql, walked: Set(counts.keys), locking: true, into: &batch)
                batch.add("SET LOCAL lock_timeout TO DEFAULT", [])
            }
            batch.add(plan.dryRun ? sql.mapFillDryRun : sql.mapFill, parameters)
        } else {
            // A large clone's statements are planned for the rows it has, with the session's
            // settings (given with its walk into the map, where it walked so).
            if !walkedIntoMap {
                for setting in PostgreSQLGraphCopySQL.plannerDefaults { batch.add(setting, []) }
                batch.add(plan.dryRun ? sql.mapFillDryRun : sql.mapFill, parameters)
            }
            // Temporary tables are never analysed automatically; without statistics a large clone
            // would be planned as if the map held a handful of rows.
            batch.add("ANALYZE \(map)", [])
            compareSourceVersions(sql: sql, walked: Set(counts.keys), locking: true, fromMap: walkedIntoMap, into: &batch)
        }
        let linkedSQL = sql.linkedStatements(walked: Set(counts.keys), mayAppend: mayAppend)
        // Links found again only where not remembered, or where the copies join an ordered list
        // of a linked object, which must be locked before its end is read.
        let reusesLinks = rememberedLinks != nil && linkedSQL.orderedTags.isEmpty
        if !reusesLinks { for statement in linkedSQL.queries { batch.add(statement, parameters) } }
        for reference in setReferences {
            let tag = schema.entityTag(reference.relationship.destination)
            batch.add(
                """
                INSERT INTO \(linked) AS l (ent, id, bump) SELECT DISTINCT \(tag), v, \(reference.relationship.hasInverse ? 1 : 0) FROM unnest($1::int8[]) v \
                ON CONFLICT (ent, id) DO UPDATE SET bump = GREATEST(l.bump, EXCLUDED.bump)
                """, [PostgreSQLStoreContext.idArray(reference.ids)])
        }
        // A to-many the plan sets on the roots: its objects are linked too, and gain a version step
        // when their own list (the inverse) changes — once, however many copies link them.
        for (relationship, ids) in rootLinks where !ids.isEmpty {
            let tag = schema.entityTag(relationship.destination)
            batch.add(
                """
                INSERT INTO \(linked) AS l (ent, id, bump) SELECT DISTINCT \(tag), v, \(relationship.hasInverse ? 1 : 0) FROM unnest($1::int8[]) v \
                ON CONFLICT (ent, id) DO UPDATE SET bump = GREATEST(l.bump, EXCLUDED.bump)
                """, [PostgreSQLStoreContext.idArray(ids)])
        }
        var linkedCounts: [Int: Int] = [:]
        if reusesLinks, let rememberedLinks {
            linkedCounts = rememberedLinks.counts
        } else {
            countLinked(linkedSQL, extraTags: setTags, into: &batch) { linkedCounts = $0 }
        }

        var cloneIDs: [Int64] = []
        let rootIDs = "SELECT new FROM \(map) WHERE ent = $1::int4 AND old = $2 ORDER BY cp"
        let connectionName = connection.redactedURI
        batch.add(rootIDs, [.int8(Int64(sql.rootTag)), .int8(plan.rootID)]) {
            $0.forEachRow { cloneIDs.append($0.int64(0)) }
            // A walk table left in place must be this root's walk; the check of versions could
            // not tell another root's. Never expected: a safeguard for the bookkeeping of
            // `walkTableHolds`, which runs the clone again with the table filled.
            guard !keepsWalkTable || cloneIDs.count == copies else {
                throw Self.sourceChanged("the walk table held another walk", sql: rootIDs, connection: connectionName)
            }
        }
        // A small walk is read back to be remembered; one remembered that this run finds out of
        // date (a moved version fails the check) is forgotten, and the run after walks again.
        var learned: PostgreSQLSourceWalks.Walk?
        if let answered, walkKey != nil, prepared, walked <= PostgreSQLSourceWalks.rowLimit {
            batch.add(PostgreSQLSourceWalks.read, []) {
                learned = PostgreSQLSourceWalks.walk(rows: $0, objects: answered.objects, mayAppend: answered.mayAppend)
            }
            if rootCheck != nil && linkedSQL.orderedTags.isEmpty {
                batch.add(PostgreSQLSourceWalks.readLinks, []) {
                    learned?.links = PostgreSQLSourceWalks.links(rows: $0, counts: linkedCounts)
                }
                let written = Int64.random(in: 1...Int64.max)
                batch.add(PostgreSQLSourceWalks.writeToken, [.int8(written)])
                token = written
            }
        }
        var copied = false, truncated = false
        defer {
            if keepsWalkTable && !copied { connection.walkTableHolds = nil }
            if let walkKey {
                if !copied, remembered != nil { connection.sourceWalks.forget(walkKey) }
                if copied, let learned { connection.sourceWalks.remember(learned, for: walkKey) }
            }
            // What the walk and linked tables hold if this transaction commits: the walk of this
            // source and its links, when both are remembered and the clone does not end by
            // truncating them.
            let holdsRemembered = reusesLinks || learned?.links != nil
            var atCommit: PostgreSQLSourceWalks.Held?
            if copied, !truncated, holdsRemembered, let walkKey, let token { atCommit = .init(key: walkKey, token: token) }
            connection.walkTableAtCommit = .some(atCommit)
        }
        do {
            if pipelined {
                if !plan.dryRun {
                    addWrites(
                        sql: sql, steps: steps, counts: counts, mayAppend: mayAppend, parameters: parameters, progress: progress,
                        into: &batch)
                }
                if checksSourceLast { compareSourceVersions(sql: sql, walked: Set(counts.keys), locking: false, into: &batch) }
                try run(batch, pipelined: true)
            } else {
                try run(batch, pipelined: false)
                if !plan.dryRun {
                    if locatesCopy {
                        statementCount += 1
                        try connection.execute("SAVEPOINT \"_clone_write\"")
                    }
                    var writes = PostgreSQLStatementBatch()
                    addWrites(
                        sql: sql, steps: steps, counts: counts, mayAppend: mayAppend, parameters: parameters, progress: progress,
                        into: &writes)
                    try run(writes, pipelined: false)
                    try writeRootLinks(rootLinks, root: root, rootTag: sql.rootTag)
                }
                if checksSourceLast {
                    var check = PostgreSQLStatementBatch()
                    compareSourceVersions(sql: sql, walked: Set(counts.keys), locking: false, into: &check)
                    try run(check, pipelined: false)
                }
            }
            if !plan.dryRun {
                stepVersionsAtCommit(sql: sql, linked: linkedCounts)
                // The linked objects are not locked (`PostgreSQLGraphCopySQL.linkedLockSQL`): one
                // deleted before the commit fails its foreign key there, and the clone runs again.
                if !linkedCounts.isEmpty { connection.linkedRowsUnlocked = true }
            }
            copied = true
        } catch let error as PostgreSQLError where error.isRetryableTransactionFailure {
            // Left as it is for the store's write, which runs the whole transaction again.
            throw error
        } catch let error as PostgreSQLError where waitsBriefly && error.code == .lockNotAvailable {
            throw Self.sourceChanged("its source was being edited: \(error.message)", sql: error.sql ?? "", connection: connection.redactedURI)
        } catch let error as PostgreSQLError where checksSourceLast && error.kind == .server {
            // Reads made across an edit of the source can fail a write (a reference to a row
            // gone, a value that clashes) before the check could tell: the run with the source
            // locked reports a failure that is truly the clone's.
            throw Self.sourceChanged(
                "a write failed before the source was checked: \(error.message)", sql: error.sql ?? "", connection: connection.redactedURI)
        } catch {
            let translated = (error as? PostgreSQLError).map { PostgreSQLStore.translate($0, layout: context.layout) } ?? error
            guard locatesCopy, !plan.dryRun, let storeError = translated as? StoreError else { throw translated }
            throw try locatedInCopy(storeError, sql: sql, parameters: parameters)
        }

        var ids: [[String: [Int64: Int64]]]?
        if plan.returnIDs {
            var perCopy = [[String: [Int64: Int64]]](repeating: [:], count: copies)
            let entities = schema.model.entities
            try query("SELECT cp, ent, old, new FROM \(map)", []).forEachRow { row in
                perCopy[Int(row.int64(0)) - 1][entities[Int(row.int64(1))].name, default: [:]][row.int64(2)] = row.int64(3)
            }
            ids = perCopy
        }

        // The rows this clone leaves in each work table (a kept walk's tables are not written).
        let left = [
            PostgreSQLGraphCopySQL.walkTable: walkTableRows, map: total,
            linked: keepsWalkTable ? 0 : linkedCounts.values.reduce(0, +), PostgreSQLSourceWalks.tokenTable: token != nil && !keepsWalkTable ? 1 : 0,
        ]
        connection.workRowsSinceTruncate.merge(left, uniquingKeysWith: +)
        let due = connection.workRowsSinceTruncate.filter { $0.value >= Self.truncateRows }.keys.sorted()
        if !due.isEmpty {
            statementCount += 1
            // A remembered walk lives in the walk, linked and token tables, not in the map.
            truncated = due != [map]
            // Right after the COMMIT, in its round trip: the linked objects' version steps read
            // the linked table at the commit (`stepVersionsAtCommit`), and a truncation before
            // them left the shared objects of every large clone unstepped. A truncation that
            // fails leaves the rows for the next clone's.
            let session = connection
            connection.statementsAfterCommit.append(
                (
                    .init("TRUNCATE \(due.joined(separator: ", "))", [], isPrepared: false),
                    { for table in due { session.workRowsSinceTruncate[table] = Self.truncateRows } }
                ))
            for table in due { connection.workRowsSinceTruncate[table] = 0 }
        }

        let entities = schema.model.entities
        let name = { (tag: Int) in entities[tag].name }
        return GraphCopyResult(
            cloneIDs: cloneIDs,
            created: Dictionary(uniqueKeysWithValues: counts.map { (name($0.key), $0.value) }),
            linked: Dictionary(uniqueKeysWithValues: linkedCounts.map { (name($0.key), $0.value) }),
            ids: ids)
    }

    /// Step 4 on: the rows, the join rows and the followed attributes.
    private func addWrites(
        sql: PostgreSQLGraphCopySQL, steps: [PostgreSQLGraphCopySQL.EntityStep], counts: [Int: Int], mayAppend: Set<Int>,
        parameters: [PostgreSQLValue], progress: GraphCopyProgress, into batch: inout PostgreSQLStatementBatch
    ) {
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
    private func stepVersionsAtCommit(sql: PostgreSQLGraphCopySQL, linked: [Int: Int]) {
        for (tag, objects) in linked.sorted(by: { $0.key < $1.key }) {
            let step = sql.versionSteps[tag] ?? PostgreSQLGraphCopySQL.versionStep(entity: schema.model.entities[tag].name)
            for statement in objects == 1 ? step.suffix(1) : step[...] {
                connection.statementsBeforeCommit.append(.init(statement, [.int8(Int64(tag))], isPrepared: prepared))
            }
        }
    }

    /// A unique violation of a copy of many copies, said with the first copy (0-based) that
    /// repeats a value, as the SQLite copier says it (`StoreError.inCopy`). The failed writes are
    /// rolled back to the savepoint first — an aborted transaction answers no query — while the
    /// map, filled before it, is still there to compare the copies' values with.
    private mutating func locatedInCopy(_ error: StoreError, sql: PostgreSQLGraphCopySQL, parameters: [PostgreSQLValue]) throws -> StoreError {
        let clash: String?
        switch error {
        case let .uniqueViolation(entity, attribute): clash = sql.clashingCopyQuery(entity: entity, attributes: [attribute])
        case let .uniqueTogetherViolation(entity, attributes): clash = sql.clashingCopyQuery(entity: entity, attributes: attributes)
        default: clash = nil
        }
        guard let clash else { return error }
        statementCount += 1
        try connection.execute("ROLLBACK TO SAVEPOINT \"_clone_write\"")
        let result = try query(clash, parameters)
        guard result.rowCount > 0, let copy = result[0].optionalInt64(0) else { return error }
        return .inCopy(index: Int(copy) - 1, error: error)
    }

    /// The session's scratch tables. Run where a write first meets a connection, outside a
    /// transaction (a rolled-back transaction would take tables it created with it); `IF NOT
    /// EXISTS` makes a second run harmless. Their rows outlive the transaction that wrote them
    /// until the next clone empties them (see the type's comment).
    ///
    /// The map's index by parent serves only the push of a self-following attribute down a chain
    /// of clones (`PostgreSQLGraphCopySQL.makeFollowStep`), so it is made only for a model with
    /// such an attribute: every map fill would keep it up, for every row, with no reader.
    static func workTablesDDL(for schema: StoreSchema) -> String {
        let chains = schema.model.entities.contains { entity in entity.attributes.contains { $0.cloneRule.followParent == $0.name } }
        return """
            CREATE TEMP TABLE IF NOT EXISTS "_clone_walk" (seq int8 NOT NULL, cp int4 NOT NULL, ent int4 NOT NULL, \
            id int8 NOT NULL, via int4 NOT NULL, pent int4, pid int8, ver int8);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_map" (cp int4 NOT NULL, ent int4 NOT NULL, old int8 NOT NULL, new int8 NOT NULL, \
            pent int4, pold int8, pnew int8, ver int8, PRIMARY KEY (ent, old, cp));
            CREATE TEMP TABLE IF NOT EXISTS "_clone_linked" (ent int4 NOT NULL, id int8 NOT NULL, bump int4 NOT NULL, \
            PRIMARY KEY (ent, id));
            CREATE TEMP TABLE IF NOT EXISTS "_clone_walk_token" (token int8 NOT NULL);
            """ + (chains ? "\nCREATE INDEX IF NOT EXISTS \"_clone_map_parent\" ON pg_temp.\"_clone_map\" (ent, pnew);" : "")
    }

    /// The `_id` sequence of every entity, by entity number, asked of the server once per
    /// connection. The map fill names them as constants, which PostgreSQL resolves when it plans
    /// the statement; asking `pg_get_serial_sequence` in the statement itself made the server
    /// resolve every entity's sequence again at every clone. A table keeps its sequence when it is
    /// renamed, so the name is asked, never derived from the table's.
    private mutating func identitySequences() throws -> [String] {
        if let known = connection.identitySequences { return known }
        let tables = schema.model.entities.map { PostgreSQLValue.text(quoted($0.name)) }
        var sequences = [String?](repeating: nil, count: tables.count)
        try run(
            "SELECT n::int8, pg_get_serial_sequence(t, '_id') FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)",
            [.array(element: .text, tables)]
        ).forEachRow { sequences[Int($0.int64(0)) - 1] = $0.optionalString(1) }
        if let missing = sequences.firstIndex(of: nil) {
            throw StoreError.incompatibleStore(
                path: connection.redactedURI, reason: "the table \(schema.model.entities[missing].name) has no _id sequence")
        }
        let known = sequences.compactMap { $0 }
        connection.identitySequences = known
        return known
    }

    /// The scratch tables on a session that lost them: a connection re-opened inside this very
    /// transaction (the store made them on the session it had before). Made inside the
    /// transaction, they last as long as it does, and the next write makes them for good.
    private mutating func ensureWorkTables() throws {
        guard !connection.hasCloneWorkTables else { return }
        statementCount += 1
        try connection.execute(Self.workTablesDDL(for: schema))
    }

    /// A retryable failure: the source changed between the walk and its lock or check.
    private static func sourceChanged(_ detail: String, sql: String, connection: String) -> PostgreSQLError {
        PostgreSQLError(
            kind: .server, code: .serializationFailure,
            message: "the clone's source may have changed while it was being copied (\(detail)); the copy runs again",
            sql: sql, connection: connection)
    }

    /// Compares the walked objects' versions with the walk's, locking them `FOR SHARE` first
    /// (`PostgreSQLGraphCopySQL.sourceLock`: equal versions then mean the locked rows are the
    /// source, and stay so until commit) or not (`sourceCheck`, after the clone's last read).
    private func compareSourceVersions(
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
    private func countLinked(
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
    private mutating func run(_ batch: PostgreSQLStatementBatch, pipelined: Bool) throws {
        if pipelined {
            let statements = batch.statements.map { PostgreSQLConnection.PipelinedStatement($0.sql, $0.values, isPrepared: prepared) }
            statementCount += statements.count
            var outcomes = try connection.pipeline(statements).makeIterator()
            for entry in batch.entries {
                switch entry {
                case .statement(_, _, let reader):
                    guard let outcome = outcomes.next() else { preconditionFailure("one outcome per statement") }
                    // Read before the reader is looked at: `reader?(…)` would skip its argument.
                    let result = try outcome.get()
                    try reader?(result)
                case .action(let action):
                    action()
                }
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
