import ClonerModel

/// The SQL of one graph copy on SQLite, derived from the schema and a `GraphCopyPlan` — and from
/// nothing else: no object has been read yet. Its size grows with the number of entities and
/// relationships in the model, never with the number of objects, which is what keeps a clone of
/// a million rows a few dozen statements. What is the same on every backend (the rules, the rows'
/// inserts, the linked objects, the join tables, the follow order) is `GraphCopySQLBuilder`'s;
/// this type adds SQLite's walk, map fill, staging tables and follow statements.
///
/// The statements, run in this order by `SQLiteGraphCopier`:
/// 1. `walkStart`, then `walkLevel` once per level: every object the root owns, through owned
///    relationships, breadth first, skipping the exact inverse edge of arrival; an edge is taken
///    once per object, which ends cycles. Where the model allows, one statement per way down it
///    instead (`walkWays`).
/// 2. per entity, `mapFill`: old → new `_id` (new ids continue the table's sequence, in old-id
///    order) and each object's parent — its first arrival in breadth-first order.
/// 3. `linkedQueries`: the shared objects the copy links to (also what a dry run reports).
/// 4. per entity, `inserts`: one INSERT … SELECT copying rows inside SQLite (blobs never reach
///    Swift), applying the attribute rules and re-pointing references into the clone set.
/// 5. `joinInserts`: links of join tables, re-pointed or shared.
/// 6. `follows`: `followParent` attributes, from the parent's clone, once every row exists.
///
/// Many copies (docs/architecture.md#many-copies) multiply the walk's rows inside SQL: the map fill joins the walk
/// with the copies table (one row per copy number `cp`, 0-based), so the map holds one row per
/// object per copy, and every join on the map matches copy numbers — one identity map per copy,
/// the same statements for 1 copy or 1,000. The root's `set` values, per copy, sit in the root
/// values table keyed by (cp, name).
struct SQLiteGraphCopySQL: GraphCopySQLBuilder {
    typealias Dialect = SQLiteDialect

    struct EntityStep {
        let name: String
        let tag: Int
        /// Numbers new ids after the highest the table has used, read in the same statement, with
        /// `_cloner_row_number()`: run after `SQLiteConnection.resetRowNumbers()`.
        let mapFill: String
        /// `mapFill` after a walk by ways, which leaves the first arrivals in their own table.
        let mapFillAfterWays: String
        /// Fills `pnew` of rows whose parent's entity is mapped after this one (or is this one),
        /// once every entity is mapped; nil when every possible parent is mapped before.
        let parentUpdate: String?
        /// One INSERT … SELECT, or two when ordered references split the rows.
        let inserts: [String]
        /// For many copies: the statements that create (once per connection), fill and empty the
        /// entity's staging table, which holds its source rows once; nil for a single copy.
        let staging: Staging?
    }

    /// An INSERT that reads the table it writes makes SQLite buffer the SELECT's whole result in
    /// an ephemeral table first (its guard against reading its own new rows), so every copied row,
    /// blobs included, is written to a temp file and read back before it reaches the table. For
    /// N copies that is N times the source. Reading the source rows from a staging table instead
    /// lets the INSERT stream: the source is buffered once, however many copies read it.
    struct Staging {
        let create: String
        let fill: String
        let clear: String
    }

    /// Each entity's map rows in a table of their own, keyed (cp, old): a look-up compares two
    /// integers, not three of which the first (the entity) always ties, which sends SQLite from
    /// its one-integer compare to its general record compare on every look-up.
    static func mapTable(of tag: Int) -> String { Dialect.workTable("_clone_map_\(tag)") }
    static let mapNamesEntities = false
    static let chainTable = Dialect.workTable("_clone_chain")
    static let copiesTable = Dialect.workTable("_clone_copies")
    static let rootValuesTable = Dialect.workTable("_clone_set")
    static let treeTable = Dialect.workTable("_clone_tree")
    /// A walk by ways: each object of entity `tag` once, with the way that reached it first
    /// (`walkWays`), keyed by its id (the rowid).
    static func firstArrivalTable(of tag: Int) -> String { Dialect.workTable("_clone_first_\(tag)") }

    static func stagingTable(_ entity: String) -> String { Dialect.workTable("_clone_src_\(entity)") }

    let schema: StoreSchema
    let plan: GraphCopyPlan
    let scope: GraphCopyScope
    /// One level of the walk (`walkLevelSQL`), run until a level finds nothing; empty when the
    /// root has no relationship to walk.
    private(set) var walkLevel = ""
    /// A large walk as one statement per way down the model (`walkWaySteps`), run once each in
    /// order instead of `walkLevel`; nil where the model needs the level walk.
    private(set) var walkWays: WalkWays?
    private(set) var entitySteps: [EntityStep] = []
    private(set) var linkedQueries: [String] = []
    private(set) var joinInserts: [String] = []
    private(set) var follows: [GraphCopyFollowStep] = []
    /// `followParent` attributes written by the INSERT itself: every possible parent's entity is
    /// inserted earlier with its followed value final by then (qualified names).
    private(set) var inlineFollows: Set<String> = []
    /// For a step of two inserts (`EntityStep.inserts`), the entities its ordered references may
    /// link outside the copy. The second insert writes only rows that join an original's list,
    /// each an object the linked table holds with a version step (its list changes): with no such
    /// object of these entities linked, it would write nothing and is not run (it would still read
    /// every row of the step to find none). Absent where it always runs (the root's `set` names the
    /// list its copies join).
    private(set) var appendsOnlyTo: [Int: Set<Int>] = [:]
    /// Entities in the order they are mapped and inserted.
    private var stepOrder: [String: Int] = [:]
    /// Root properties some copy sets: the request's `set` and every per-copy `set`.
    private let rootSetNames: Set<String>

    init(plan: GraphCopyPlan, schema: StoreSchema) {
        self.schema = schema
        self.plan = plan
        self.scope = GraphCopyScope(plan: plan, schema: schema)
        self.rootSetNames = Set(plan.rootValues.keys).union(plan.perCopyRootValues.flatMap(\.keys))
        let entities = scope.entities
        for (index, entity) in entities.enumerated() { stepOrder[entity.name] = index }
        self.inlineFollows = inlinableFollows(entities: entities)
        self.walkLevel = walkEdges.isEmpty ? "" : walkLevelSQL()
        self.walkWays = walkWaySteps()
        self.entitySteps = entities.map(entityStep)
        let linkedSelects = linkedSelects(entities: entities)
        self.linkedQueries = Self.linkedInsert(linkedSelects.map(\.sql)).map { [$0] } ?? []
        for step in entitySteps where step.inserts.count == 2 {
            let entity = model.entity(named: step.name)!
            let ordered = (schema.foreignKeys[entity.name] ?? []).filter { $0.positionColumn != nil }.compactMap(\.relationship)
            guard !ordered.contains(where: { setsAtRoot(entity.name, $0) }) else { continue }
            appendsOnlyTo[step.tag] = Set(linkedSelects.filter { $0.source == step.tag && $0.reference && $0.ordered }.map(\.tag))
        }
        self.joinInserts = schema.joinTables.flatMap(joinTableInserts)
        self.follows = followSteps
    }

    // MARK: SQLite's spelling of the shared SQL

    static let cloneTime = ":now"

    /// The map's key order, which is new-id order (rows appended to the table's b-tree): no sort,
    /// and no blob pushed through a sorter.
    var insertOrder: String { "ORDER BY m.cp, m.old" }

    /// Every copy walks the same graph: copy 0's links stand for all.
    var linkedCopy: Int? { 0 }

    func rowSource(_ entity: EntityDescription) -> String {
        plan.copies > 1 ? SQLiteGraphCopySQL.stagingTable(entity.name) : quoted(entity.name)
    }

    func setsAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && rootSetNames.contains(property)
    }

    func setAtRoot(_ entity: String, _ property: String, alias: String) -> String? {
        setsAtRoot(entity, property) ? "\(alias).pold IS NULL" : nil
    }

    func attributeSetCondition(_ attribute: AttributeDescription, of entity: String) -> String? {
        guard setsAtRoot(entity, attribute.name) else { return nil }
        let name = "'" + attribute.name.replacingOccurrences(of: "'", with: "''") + "'"
        return "m.pold IS NULL AND EXISTS (SELECT 1 FROM \(SQLiteGraphCopySQL.rootValuesTable) s WHERE s.cp = m.cp AND s.name = \(name))"
    }

    /// Every copy walks the same graph: a relationship some copy sets is walked from no root.
    func walkSkipsFromRoot(_ entity: String, _ property: String, arrival: String) -> String? {
        setsAtRoot(entity, property) ? "\(arrival).via <> -1" : nil
    }

    /// The value of a root's to-one set in its copy (only used where every copy sets it).
    func rootSetReference(_ property: String, alias: String) -> String {
        let name = "'" + property.replacingOccurrences(of: "'", with: "''") + "'"
        return "(SELECT s.value FROM \(SQLiteGraphCopySQL.rootValuesTable) s WHERE s.cp = \(alias).cp AND s.name = \(name))"
    }

    /// The value a copy's root is set to, when its copy sets the attribute; the rules' value when
    /// not (a per-copy `set` may name an attribute that other copies leave to the rules).
    func settingAttribute(_ attribute: AttributeDescription, of entity: String, over expression: String) -> String {
        guard setsAtRoot(entity, attribute.name) else { return expression }
        let table = SQLiteGraphCopySQL.rootValuesTable
        let name = "'" + attribute.name.replacingOccurrences(of: "'", with: "''") + "'"
        return "CASE WHEN m.pold IS NULL AND EXISTS (SELECT 1 FROM \(table) s WHERE s.cp = m.cp AND s.name = \(name)) "
            + "THEN (SELECT s.value FROM \(table) s WHERE s.cp = m.cp AND s.name = \(name)) ELSE \(expression) END"
    }

    // MARK: 1. Walk

    /// The walk's first row: the root, arrived at through no relationship (`via` -1).
    static let walkStart = "INSERT INTO \(walkTable) (ent, id, via, pent, pid) VALUES (:rootTag, :root, -1, NULL, NULL)"

    /// One level of the walk, breadth first: the arrivals `:from < seq <= :to` (the level before)
    /// take every edge they may, each edge once — an arrival takes none that an earlier arrival
    /// at the same object already took (what the recursive walk's `UNION` of whole rows did by
    /// deduplicating), so an object reached twice adds only the edge its first arrival skipped.
    /// Rows are numbered in the order of the level before (`seq` of the arrival), then of the
    /// relationship (model order), then of its destinations (list order, then `_id`): the order a
    /// first-in first-out recursive walk queues them in, so an object's first row names the same
    /// parent. One statement per level, with no per-object tries of every relationship.
    ///
    /// The level before is read by its numbers (`NOT INDEXED`): through the entity's index SQLite
    /// would read every row of that entity the walk holds at each level, quadratic in a deep
    /// graph.
    private func walkLevelSQL() -> String {
        let walk = SQLiteGraphCopySQL.walkTable
        let parts = walkEdges.map { edge in
            let join = edge.join
            let destination = "t.\(quoted(join.destinationColumn))"
            let taken = walkConditions(edge, arrival: "e", row: "t").joined(separator: " AND ")
            var conditions = ["w.seq > :from", "w.seq <= :to"] + walkConditions(edge, arrival: "w", row: "t")
            // No row for an arrival that can take nothing new: the object was reached before
            // through the same relationship or by an arrival that took all its edges. Never its
            // first arrival, so no parent and no order changes.
            let complete = completeArrivals(at: edge.relationship.destination) + (edge.relationship.isSelfInverse ? [] : [edge.via])
            conditions.append(
                "NOT EXISTS (SELECT 1 FROM \(walk) y WHERE y.ent = \(edge.destinationTag) AND y.id = \(destination) "
                    + "AND y.via IN (\(Set(complete).sorted().map(String.init).joined(separator: ", "))))")
            return """
                SELECT \(edge.destinationTag) AS ent, \(destination) AS id, \(edge.via) AS via, w.ent AS pent, w.id AS pid, w.seq AS o, \
                \(join.positionColumn.map { "t.\(quoted($0))" } ?? "NULL") AS k, \(destination) AS d \
                FROM \(walk) w NOT INDEXED JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = w.id \
                WHERE \(conditions.joined(separator: " AND ")) \
                AND NOT EXISTS (SELECT 1 FROM \(walk) e WHERE e.id = w.id AND e.seq < w.seq AND \(taken))
                """
        }
        return "INSERT INTO \(walk) (ent, id, via, pent, pid) SELECT ent, id, via, pent, pid FROM (\n"
            + parts.joined(separator: "\nUNION ALL\n") + "\n) ORDER BY o, via, k, d"
    }

    // MARK: 2–4. Map and insert per entity

    private func entityStep(_ entity: EntityDescription) -> EntityStep {
        let entityTag = tag(entity.name)
        let table = quoted(entity.name)
        // One map row per object per copy; copy k's new ids follow copy k-1's, in old-id order:
        // the rows come copy by copy (the copies table is the outer loop of the CROSS JOIN), each
        // copy's objects in id order, and new = base + the row's number (`_cloner_row_number()`,
        // started again before the statement), so the rows arrive in the map's key order
        // (cp, old) — appended, never sorted. The parent's clone is looked up here when its
        // entity's rows are already mapped (`parentUpdate` fills the rest afterwards).
        // The highest `_id` the table has used (AUTOINCREMENT never reuses one), once per statement.
        var nextIDQuery = """
            SELECT max(coalesce((SELECT max("_id") FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = '\(entity.name)'), 0))
            """
        // The entities of an inheritance hierarchy share one `_id` space: after the highest any
        // of their tables issued, and after the ids this clone mapped for them before (their rows
        // are inserted once every entity is mapped).
        let sharing = model.entitiesSharingIDs(with: entity.name)
        if sharing.count > 1 {
            let mapped = sharing.filter { $0 != entity.name }.map { "coalesce((SELECT max(new) FROM \(Self.mapTable(of: tag($0)))), 0)" }
            nextIDQuery = "SELECT max(\(SQLiteStoreContext.highestIssuedIDQuery(tables: sharing)), \(mapped.joined(separator: ", ")))"
        }
        // The parent's clone only where a followed value reads it (`parentCloneReads`).
        let readsParent = parentCloneReads[entityTag] != nil
        // The objects with their first arrival, in id order: from the walk's rows (the lowest
        // `seq` of each object) or, after a walk by ways, the first-arrival table's, one per object.
        // One copy needs no copies table: crossed with it, SQLite would first store the numbered
        // objects in a temporary table; alone they stream from the first arrivals.
        let single = plan.copies == 1
        let copyNumber = single ? "0" : "c.cp"
        let map = Self.mapTable(of: entityTag)
        let mapFill = { (firstArrivals: String) in
            let numbered = "(\(firstArrivals)) w"
            return """
                INSERT INTO \(map) (cp, old, new, pent, pold, pnew) \
                SELECT \(copyNumber), w.id, (\(nextIDQuery)) + \(SQLiteConnection.rowNumberFunction)(), w.pent, w.pid, \
                \(parentClone(of: entityTag, parent: "w.pent", id: "w.pid", copy: copyNumber)) \
                FROM \(single ? numbered : "\(SQLiteGraphCopySQL.copiesTable) c CROSS JOIN \(numbered)")
                """
        }
        let laterParent =
            readsParent
            && model.entities.contains { candidate in
                (stepOrder[candidate.name].map { $0 >= stepOrder[entity.name]! } ?? false)
                    && candidate.relationships.contains { $0.destination == entity.name && isFollowed($0) }
            }
        let parentUpdate =
            laterParent
            ? """
            UPDATE \(map) SET pnew = \(parentClone(of: entityTag, parent: "\(map).pent", id: "\(map).pold", copy: "\(map).cp")) \
            WHERE pold IS NOT NULL AND pnew IS NULL
            """ : nil
        let staging = plan.copies > 1 ? stagingStatements(entity) : nil
        return SQLiteGraphCopySQL.EntityStep(
            name: entity.name, tag: entityTag,
            mapFill: mapFill("SELECT id, pent, pid, min(seq) FROM \(SQLiteGraphCopySQL.walkTable) WHERE ent = \(entityTag) GROUP BY id"),
            mapFillAfterWays: mapFill("SELECT id, pent, pid FROM \(SQLiteGraphCopySQL.firstArrivalTable(of: entityTag))"),
            parentUpdate: parentUpdate,
            inserts: rowInserts(entity), staging: staging)
    }

    /// The clone of an object's parent (entity `parent`, id `id`) in copy `copy`, for an object
    /// of entity `tag`: looked up in the map of each parent entity whose value a followed
    /// attribute reads (`parentCloneReads`), NULL for any other parent, or one not mapped yet.
    private func parentClone(of tag: Int, parent: String, id: String, copy: String) -> String {
        guard let parents = parentCloneReads[tag], !parents.isEmpty else { return "NULL" }
        let cases = parents.sorted().map { entity in
            "WHEN \(entity) THEN (SELECT p.new FROM \(Self.mapTable(of: entity)) p WHERE p.cp = \(copy) AND p.old = \(id))"
        }
        return "CASE \(parent) \(cases.joined(separator: " ")) END"
    }

    /// The staging table of `entity`: its columns untyped (values pass through as stored) and
    /// `_id` the rowid, so the INSERT finds each source row by key, in the map's order.
    private func stagingStatements(_ entity: EntityDescription) -> Staging {
        let references = (schema.foreignKeys[entity.name] ?? []).flatMap { [$0.column] + ($0.positionColumn.map { [$0] } ?? []) }
        let columns = ["_version"] + references + entity.attributes.map(\.name)
        let staging = SQLiteGraphCopySQL.stagingTable(entity.name)
        let names = (["_id"] + columns).map(quoted).joined(separator: ", ")
        return Staging(
            create: "CREATE TEMP TABLE IF NOT EXISTS \(staging.dropFirst(5)) (\"_id\" INTEGER PRIMARY KEY, \(columns.map(quoted).joined(separator: ", ")))",
            fill: """
                INSERT INTO \(staging) (\(names)) SELECT \(names) FROM main.\(quoted(entity.name)) \
                WHERE "_id" IN (SELECT old FROM \(Self.mapTable(of: tag(entity.name))) WHERE cp = 0)
                """,
            clear: "DELETE FROM \(staging)")
    }

    // MARK: 6. followParent

    /// A self-following attribute (a tree carrying its root's id) needs the value pushed down
    /// every level: one recursive query over the clone's parent links does it. The parent → child
    /// links of this entity's clones are keyed by parent, so each level of the recursion is a key
    /// lookup (the map itself is keyed by old id).
    func followPropagation(_ follow: GraphCopyFollow) -> [String] {
        let entityTag = tag(follow.entity.name)
        let table = quoted(follow.entity.name)
        let column = quoted(follow.attribute.name)
        let map = Self.mapTable(of: entityTag)
        let tree = SQLiteGraphCopySQL.treeTable
        return [
            "DELETE FROM \(SQLiteGraphCopySQL.chainTable)",
            "DELETE FROM \(tree)",
            "INSERT INTO \(tree) (pnew, new) SELECT pnew, new FROM \(map) WHERE pent = \(entityTag) AND pnew IS NOT NULL",
            """
            INSERT INTO \(SQLiteGraphCopySQL.chainTable) (new, value) WITH RECURSIVE chain(new, value) AS (\
            SELECT m.new, e.\(column) FROM \(map) m JOIN \(table) e ON e."_id" = m.new \
            WHERE m.pnew IS NULL OR m.pent <> \(entityTag) \
            UNION ALL SELECT c.new, chain.value FROM chain JOIN \(tree) c ON c.pnew = chain.new\
            ) SELECT new, value FROM chain
            """,
            """
            UPDATE \(table) SET \(column) = c.value FROM \(SQLiteGraphCopySQL.chainTable) c \
            WHERE \(table)."_id" = c.new AND c.new IN (SELECT new FROM \(tree))
            """,
        ]
    }
}
