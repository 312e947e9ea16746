import ClonerModel
import Foundation

/// SQLite's side of a graph copy (`GraphCopyBackend`), run by `GraphCopier` inside the caller's
/// write transaction as set-based SQL (`SQLiteGraphCopySQL`): statements run one by one on the
/// connection's statement cache; the walk goes by levels, or by ways once the root's objects along
/// them are many; the source needs no guard under SQLite's one writer; the work tables are emptied
/// as the copy ends (a rollback restores them as they were: empty).
struct SQLiteGraphCopier: GraphCopyBackend {
    let context: SQLiteStoreContext
    let plan: GraphCopyPlan
    let sql: SQLiteGraphCopySQL

    private var connection: SQLiteConnection { context.connection }
    private var schema: StoreSchema { context.schema }

    /// The named parameters every statement of the copy may use.
    private var parameters: [String: SQLiteValue] = [:]
    /// The work tables this copy writes, emptied as it ends.
    private var written: [String] = []
    /// The staging tables this copy filled, emptied as it ends.
    private var staged: [SQLiteGraphCopySQL.Staging] = []
    /// Whether it walked by ways (`SQLiteGraphCopySQL.walkWays`).
    private var walkedByWays = false
    /// The entity steps with objects, once the walk has counted them.
    private var steps: [SQLiteGraphCopySQL.EntityStep] = []
    private var linked = Linked()

    init(context: SQLiteStoreContext, plan: GraphCopyPlan) {
        self.context = context
        self.plan = plan
        let schema = context.schema
        sql = context.connection.cloneSession.graphCopySQL.cached(for: plan) { SQLiteGraphCopySQL(plan: plan, schema: schema) }
    }

    mutating func checkRoot(_ root: EntityDescription, withWalk: Bool) throws {
        guard try connection.scalar("SELECT 1 FROM \(quoted(root.name)) WHERE \"_id\" = ?", [.integer(plan.rootID)]) != nil else {
            throw StoreError.notFound(entity: root.name, id: plan.rootID)
        }
    }

    /// The work tables (made where the connection was not prepared), the copies and the roots'
    /// values written to theirs.
    mutating func prepare(root: EntityDescription, rootValues: [[String: AttributeValue]], now: Date) throws {
        try connection.cloneSession.readyWorkTables(on: connection, entities: schema.model.entities.count)
        // Emptied before the transaction ends, so the next copy finds them empty. Only the tables
        // this copy writes.
        written = [SQLiteGraphCopySQL.linkedTable]
        if !plan.rootValues.isEmpty || !plan.perCopyRootValues.isEmpty { written.append(SQLiteGraphCopySQL.rootValuesTable) }
        if sql.follows.contains(where: { $0.statements.count > 1 }) { written += [SQLiteGraphCopySQL.chainTable, SQLiteGraphCopySQL.treeTable] }
        parameters = [":rootTag": .integer(Int64(sql.rootTag)), ":root": .integer(plan.rootID), ":now": AttributeValue.date(now).sqlValue]
        if plan.copies > 1 {
            written.append(SQLiteGraphCopySQL.copiesTable)
            try fillCopies()
        }
        try fillRootValues(rootValues)
    }

    /// The walk, by ways or by levels, shared by the copies (each making its objects): the
    /// objects per entity, all copies together.
    mutating func walk() throws -> [Int: Int] {
        let ways = try waysToWalk(sql)
        walkedByWays = ways != nil
        // A walk by ways writes the first-arrival table, one by levels the walk table.
        written += ways.map { Set([sql.rootTag] + $0.stepEntities).sorted().map(SQLiteGraphCopySQL.firstArrivalTable(of:)) } ?? [SQLiteGraphCopySQL.walkTable]
        // The objects one walk may find.
        let perWalk = plan.maximumObjects / plan.copies
        var counts: [Int: Int] = [:]
        if let ways {
            guard let objects = try walk(ways: ways, parameters: parameters, objectLimit: perWalk, rootTag: sql.rootTag) else {
                throw StoreError.tooLarge(objects: (perWalk + 1) * plan.copies, limit: plan.maximumObjects)
            }
            counts = objects.mapValues { $0 * plan.copies }
        } else {
            guard try walk(sql: sql, parameters: parameters, objectLimit: perWalk) else {
                // Past the limit the walk stopped after its level: reported as one object more than
                // allowed, as a walk counting object by object would have.
                throw StoreError.tooLarge(objects: (perWalk + 1) * plan.copies, limit: plan.maximumObjects)
            }
            try connection.forEachRow("SELECT ent, count(DISTINCT id) FROM \(SQLiteGraphCopySQL.walkTable) GROUP BY ent") {
                counts[Int($0.int64(0))] = Int($0.int64(1)) * plan.copies
            }
        }
        return counts
    }

    /// The map tables of the entities with objects, the only ones filled (a 5-object note
    /// reaches seven entities, and a DELETE of each empty table after every clone is work for
    /// nothing), then their parents' new ids, then the staging tables of the rows to copy.
    mutating func fillMap(counts: [Int: Int]) throws {
        steps = sql.entitySteps.filter { (counts[$0.tag] ?? 0) > 0 }
        written += steps.map { SQLiteGraphCopySQL.mapTable(of: $0.tag) }
        for step in steps {
            connection.resetRowNumbers()
            try connection.cachedStatement(walkedByWays ? step.mapFillAfterWays : step.mapFill).execute(named: parameters)
        }
        for case let update? in steps.map(\.parentUpdate) { try connection.cachedStatement(update).execute() }
        // A dry run reads the rows it would write only for the values of `rebuild: suffix` and
        // the unique values they would repeat.
        guard !plan.dryRun || sql.hasSuffixedAttributes || sql.hasUniqueConstraints else { return }
        for case let staging? in steps.map(\.staging) {
            try connection.cachedStatement(staging.create).execute()
            staged.append(staging)
            try connection.cachedStatement(staging.fill).execute()
        }
    }

    /// Writes the copies and the roots' to-many links; a unique violation in model terms
    /// (`GraphCopier` then names the copy that repeats a value).
    mutating func write(root: EntityDescription, rootLinks: [GraphCopyReference], counts: [Int: Int], progress: GraphCopyProgress) throws {
        guard !plan.dryRun else { return }
        do {
            try write(counts: counts, progress: progress)
            try writeRootLinks(rootLinks, root: root, rootTag: sql.rootTag)
        } catch {
            throw SQLiteStoreContext.translate(error, schema: schema)
        }
    }

    mutating func finish(counts: [Int: Int]) throws -> (cloneIDs: [Int64], linked: [Int: Int], ids: [[String: [Int64: Int64]]]?) {
        var cloneIDs: [Int64] = []
        try connection.forEachRow(
            "SELECT new FROM \(SQLiteGraphCopySQL.mapTable(of: sql.rootTag)) WHERE old = ? ORDER BY cp", [.integer(plan.rootID)]
        ) { cloneIDs.append($0.int64(0)) }
        return (cloneIDs, linked.counts, plan.returnIDs ? try copiedIDs(steps) : nil)
    }

    mutating func forEachCopyRow(_ query: String, _ body: (any SQLRow) throws -> Void) throws {
        let statement = try connection.cachedStatement(query)
        try statement.bind(named: parameters)
        let row = SQLiteRow(statement: statement)
        while try statement.step() { try body(row) }
    }

    /// Empties the tables this copy wrote, so the next copy finds them empty; tables that could not
    /// be emptied are made and emptied again by the next copy.
    mutating func end(copied: Bool) {
        do {
            for table in written { try connection.cachedStatement("DELETE FROM \(table)").execute() }
            for staging in staged { try connection.cachedStatement(staging.clear).execute() }
        } catch {
            connection.cloneSession.workTablesReady = false
        }
    }

    /// The copies table numbers the copies for the map fill of more than one (a single copy's
    /// fill numbers its objects alone).
    private func fillCopies() throws {
        try connection.cachedStatement(
            """
            INSERT INTO \(SQLiteGraphCopySQL.copiesTable) (cp) WITH RECURSIVE c(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM c WHERE n + 1 < ?1) SELECT n FROM c
            """
        ).execute([.integer(Int64(plan.copies))])
    }

    /// The linked objects (shared destinations the copies point at) per entity, and the entities
    /// with a linked object whose version steps (`SQLiteGraphCopySQL.appendsOnlyTo`).
    private struct Linked {
        var counts: [Int: Int] = [:]
        var bumped: Set<Int> = []
    }

    /// Fills the linked table: the plan's linked queries, then what the roots' values name.
    mutating func link(setReferences: [GraphCopyReference], rootLinks: [GraphCopyReference]) throws {
        for query in sql.linkedQueries { try connection.cachedStatement(query).execute(named: parameters) }
        // Rule 8: what the root's values name is linked as given — the original, even when the walk
        // also copies it another way — so it counts in `linked` like any other shared destination.
        // A to-many the plan sets on the roots: its objects are linked too, and gain a version step
        // when their own list (the inverse) changes — once, however many copies link them.
        let named = SQLiteGraphCopySQL.linkedInsert(["SELECT ?1 AS ent, value AS id, ?3 AS bump FROM json_each(?2)"])!
        for (relationship, ids) in setReferences + rootLinks {
            let tag = schema.entityTag(relationship.destination)
            try connection.cachedStatement(named).execute(
                [.integer(Int64(tag)), SQLiteStoreContext.idArray(ids), .integer(relationship.hasInverse ? 1 : 0)])
        }
        linked = Linked()
        try connection.forEachRow("SELECT ent, count(*), max(bump) FROM \(SQLiteGraphCopySQL.linkedTable) GROUP BY ent") {
            linked.counts[Int($0.int64(0))] = Int($0.int64(1))
            if $0.int64(2) != 0 { linked.bumped.insert(Int($0.int64(0))) }
        }
    }

    /// The new `_id`s per copy, entity and original `_id`.
    private func copiedIDs(_ steps: [SQLiteGraphCopySQL.EntityStep]) throws -> [[String: [Int64: Int64]]] {
        var byCopy = [[String: [Int64: Int64]]](repeating: [:], count: plan.copies)
        for step in steps {
            try connection.forEachRow("SELECT cp, old, new FROM \(SQLiteGraphCopySQL.mapTable(of: step.tag))") { row in
                byCopy[Int(row.int64(0))][step.name, default: [:]][row.int64(1)] = row.int64(2)
            }
        }
        return byCopy
    }

    /// Walks the graph level by level (`SQLiteGraphCopySQL.walkLevel`) until a level finds
    /// nothing; false when it stopped because the walk has found more than `objectLimit` objects.
    /// A level's rows continue the walk table's numbering, so the level after is the rows after
    /// the last one numbered before it.
    private func walk(sql: SQLiteGraphCopySQL, parameters: [String: SQLiteValue], objectLimit: Int) throws -> Bool {
        try connection.cachedStatement(SQLiteGraphCopySQL.walkStart).execute(named: parameters)
        var to = connection.lastInsertRowID
        var from = to - 1
        var rows = 1
        // Rows that were not a first arrival when the objects were last counted.
        var repeated = 0
        guard !sql.walkLevel.isEmpty else { return true }
        let level = try connection.cachedStatement(sql.walkLevel)
        var bounds = parameters
        while true {
            bounds[":from"] = .integer(from)
            bounds[":to"] = .integer(to)
            let added = try level.execute(named: bounds)
            guard added > 0 else { return true }
            (from, to) = (to, to + Int64(added))
            rows += added
            // An object reached by several edges is a row per edge: the objects are counted only
            // once the rows, less those known to repeat an object, could be too many — so a deep
            // graph near the limit is not counted again at every level.
            guard rows - repeated > objectLimit else { continue }
            let objects = try walkedObjects()
            guard objects <= objectLimit else { return false }
            repeated = rows - Int(objects)
        }
    }

    /// The distinct objects the walk table holds (an object reached by several edges is a row per edge).
    private func walkedObjects() throws -> Int64 {
        try connection.scalar("SELECT count(*) FROM (SELECT DISTINCT ent, id FROM \(SQLiteGraphCopySQL.walkTable))")?.int64 ?? 0
    }

    /// Objects the root reaches along the ways that leave it from which the walk goes by ways
    /// (`SQLiteGraphCopySQL.walkWays`): below it, the one statement per level costs less than one
    /// per way (a 5-object note: three level statements against seven ways).
    static let walkWaysFromObjects = 1_000

    /// The ways this copy walks by, if it does: the model has them and the root's objects along
    /// the ways that leave it reach `walkWaysFromObjects`, counted by one statement that stops there.
    private func waysToWalk(_ sql: SQLiteGraphCopySQL) throws -> SQLiteGraphCopySQL.WalkWays? {
        guard let ways = sql.walkWays else { return nil }
        let found = try connection.cachedStatement(ways.probe).scalar([.integer(plan.rootID)])?.int64 ?? 0
        return found >= Self.walkWaysFromObjects ? ways : nil
    }

    /// The walk by ways into the first-arrival table, each way once: the objects per entity,
    /// counted from the rows each way inserted (a way adds only objects no earlier way has); nil,
    /// as the level walk's false, once they pass `objectLimit` (checked after each way).
    private func walk(ways: SQLiteGraphCopySQL.WalkWays, parameters: [String: SQLiteValue], objectLimit: Int, rootTag: Int) throws -> [Int: Int]? {
        try connection.cachedStatement(ways.start).execute(named: parameters)
        var objects = [rootTag: 1]
        var total = 1
        for (entity, step) in zip(ways.stepEntities, ways.steps) {
            let added = try connection.cachedStatement(step).execute(named: [:])
            objects[entity, default: 0] += added
            total += added
            guard total <= objectLimit else { return nil }
        }
        return objects.filter { $0.value > 0 }
    }

    /// The root values table: one row per copy per property its root is set to, written by as
    /// few multi-row INSERTs as SQLite's parameter limit allows (one for any usual request).
    private func fillRootValues(_ rootValues: [[String: AttributeValue]]) throws {
        var rows: [SQLiteValue] = []
        for (copy, values) in rootValues.enumerated() {
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                // A binary `set` value is stored as a blob and the copies take its key.
                let stored: SQLiteValue =
                    if case .binary(let bytes) = value {
                        .blob(try SQLiteStoreContext.storeBlob(bytes, on: connection))
                    } else {
                        value.sqlValue
                    }
                rows += [.integer(Int64(copy)), .text(name), stored]
            }
        }
        let rowsPerStatement = 10_000
        var start = 0
        while start < rows.count {
            let chunk = Array(rows[start..<min(rows.count, start + rowsPerStatement * 3)])
            let placeholders = Array(repeating: "(?, ?, ?)", count: chunk.count / 3).joined(separator: ", ")
            try connection.makeStatement("INSERT INTO \(SQLiteGraphCopySQL.rootValuesTable) (cp, name, value) VALUES \(placeholders)").execute(chunk)
            start += chunk.count
        }
    }

    /// The first copy whose rows repeat a value of `attributes` of `entity`, asked still inside
    /// the transaction the caller rolls back: the failed statement has been undone, the rows of
    /// earlier statements are there to compare with.
    mutating func firstClashingCopy(entity: String, attributes: [String]) throws -> Int? {
        let copied = sql.entitySteps.contains { $0.name == entity }
        guard let query = sql.clashingCopyQuery(entity: entity, attributes: attributes, copied: copied, rowsKept: true) else { return nil }
        return try connection.makeStatement(query).scalar()?.int64.map { Int($0) }
    }

    private func write(counts: [Int: Int], progress: GraphCopyProgress) throws(SQLiteError) {
        let bumped = linked.bumped
        for step in steps {
            // The second insert only writes copies that join an original's list: none of those lists is linked.
            let appends = sql.appendsOnlyTo[step.tag].map { !$0.isDisjoint(with: bumped) } ?? true
            for insert in appends ? step.inserts : Array(step.inserts.prefix(1)) {
                try connection.cachedStatement(insert).execute(named: parameters)
            }
            progress.addWritten(counts[step.tag] ?? 0)
        }
        for insert in sql.joinInserts {
            try connection.cachedStatement(insert).execute(named: parameters)
        }
        for statement in sql.follows.flatMap(\.statements) {
            try connection.cachedStatement(statement).execute(named: parameters)
        }
        for tag in linked.counts.keys.sorted() {
            let entity = schema.model.entities[tag].name
            try connection.cachedStatement(SQLiteGraphCopySQL.versionStep(of: entity)).execute([.integer(Int64(tag))])
        }
    }
}
