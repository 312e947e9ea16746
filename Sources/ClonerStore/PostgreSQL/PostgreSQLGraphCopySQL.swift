import ClonerModel

/// The SQL of one graph copy on PostgreSQL, derived from the schema and a `GraphCopyPlan` — and
/// from nothing else: no object has been read yet. What is the same on every backend (the rules,
/// the rows' inserts, the linked objects, the join tables, the follow order) is
/// `GraphCopySQLBuilder`'s; this type adds PostgreSQL's walk, locks, map fill and follow
/// statements. Its size grows with the model, never with the objects or the copies.
///
/// Every statement takes the same parameter list (all typed, so statements may leave some
/// unused): `$1` the root's `_id`, `$2` the clone time, `$3` the number of copies, then per
/// property the root's values set (`settings`, name order) an array of one value per copy and
/// an array of flags saying which copies set it (docs/architecture.md#many-copies: per-copy `set`s).
///
/// The statements, run in this order by `PostgreSQLGraphCopier`:
/// 1. `walk`: one recursive query (one recursive term, the edges as a `LATERAL` union) that finds
///    every object the root owns through owned relationships, skipping the exact inverse edge of
///    arrival; `UNION` ends cycles. Its rows carry copy 0 (one walk for all copies) unless copies
///    set different relationships of the root (`perCopyWalk`), which walk differently. It writes
///    the walk table, with the `_version` of each object as the walk read it, and answers the
///    objects found per entity; `sourceCheck` compares the versions after step 6 (a large clone
///    and a run after the first: `sourceLock` locks the objects and compares them before step 3).
///    A large clone walks a second time, straight into the map (`walkIntoMap`), which is then
///    step 2 as well — by one join per way down the model where the model allows
///    (`walkByPaths`).
/// 2. `mapFill`: one statement for every entity: old → new `_id` per copy, new ids from each
///    table's sequence handed out in (copy, old id) order, each object's parent — its first
///    arrival in the walk — with the parent's new `_id`, joined within the same statement, and
///    the object's version as the walk read it.
/// 3. `everyLinked` (`linkedStatements(walked:mayAppend:)`): the shared objects the copies link to (also
///    what a dry run reports), counted, and locked where their ordered lists gain the copies.
/// 4. per entity, `inserts`: INSERT … SELECT copying rows inside the server (blobs never reach
///    Swift), applying the attribute rules and re-pointing references into the same copy.
/// 5. `joinInserts`: links of join tables, re-pointed or shared.
/// 6. `follows`: `followParent` attributes, from the parent's clone, once every row exists.
///
/// Row aliases as `GraphCopySQLBuilder` describes them; copies are numbered from 1 (`cp`).
struct PostgreSQLGraphCopySQL: GraphCopySQLBuilder {
    typealias Dialect = PostgreSQLDialect

    struct EntityStep {
        let name: String
        let tag: Int
        /// One INSERT … SELECT, or two when ordered references split the rows: those that keep
        /// their place first, then those that join an original's list at its end.
        let inserts: [String]
        /// For a step of two inserts, the arrivals (`via`) that leave an object in its place: the
        /// inverse of each of its ordered references. The walk counts the objects that came by
        /// none of them (`walkSQL`); when there are none, the second insert would write nothing
        /// and is not sent. Nil when the walk cannot tell (an ordered list the walk does not
        /// follow).
        let keepsPlaceArrivals: [Int]?
    }

    /// How one property the root's `set` names is passed: parameter numbers of its per-copy values
    /// and flags, and whether every copy sets it.
    struct Setting {
        let values: Int
        let flags: Int
        let inEveryCopy: Bool
    }

    static let mapTable = Dialect.workTable("_clone_map")
    /// One map for every entity, told apart by `ent`: one table to create, analyze and truncate.
    static func mapTable(of tag: Int) -> String { mapTable }
    static let mapNamesEntities = true
    private var map: String { Self.mapTable }

    let schema: StoreSchema
    /// The first plan of its shape (`GraphCopyShape`): read while the statements are built, and
    /// never for a value, which later clones of the shape give as parameters.
    let plan: GraphCopyPlan
    let scope: GraphCopyScope
    let settings: [String: Setting]
    let perCopyWalk: Bool
    /// Each entity's `_id` sequence by entity number (`PostgreSQLSchema.idSequences`).
    let sequences: [String]
    /// The walk, stopped after `firstWalkLimit` rows: a small clone's whole walk, and enough of a
    /// larger one's to know it is large (or, past the object limit, too large). Its answer carries
    /// the rows walked under entity -1. An object reached by several edges is a row per edge, so
    /// a walk that stopped may still have no more objects than the limit; it is then walked again
    /// straight into the map (`walkIntoMap`). A root with `firstWalkRows` objects one edge away
    /// is not walked at all (`largeRootProbe`): the walk writes no row, not even the root's.
    private(set) var walk = ""
    /// The ways down the model a large clone walks by (`walkByPaths`), when the walk can be
    /// written so; nil leaves it to the recursion.
    private(set) var walkPathList: [GraphWalkPath]?
    /// Rows the first walk stops at whatever the object limit: one more than a clone whose
    /// statements run prepared may have (`PostgreSQLGraphCopier.preparedObjectLimit`).
    static let firstWalkRows = PostgreSQLGraphCopier.preparedObjectLimit + 1
    var firstWalkLimit: Int { min(walkRowLimit, PostgreSQLGraphCopySQL.firstWalkRows) }
    /// Rows the walk stops at: one more than the objects it may find (a walk shared by the copies
    /// finds each copy's objects once).
    var walkRowLimit: Int {
        let objects = perCopyWalk ? plan.maximumObjects : plan.maximumObjects / max(plan.copies, 1)
        return objects == Int.max ? Int.max : objects + 1  // an unlimited plan must not overflow
    }
    private(set) var entitySteps: [EntityStep] = []
    /// `versionStep` of each entity of `everyLinked.linkableTags`.
    private(set) var versionSteps: [Int: [String]] = [:]
    /// The map's fill (`mapFillSQL`), and a dry run's, which takes no ids.
    private(set) var mapFill = ""
    private(set) var mapFillDryRun = ""
    private(set) var joinInserts: [String] = []
    /// The linked objects' fill and lock of a walk that found every entity the plan reaches.
    private(set) var everyLinked = LinkedStatements(queries: [], lock: "", linkableTags: [], orderedTags: [])
    /// What `everyLinked` is made of, for `linkedStatements(walked:mayAppend:)`.
    private var linkedSelects: [GraphCopyLinkedSelect] = []
    /// `linkedStatements(walked:mayAppend:)`, `sourceLock(walked:)` and `sourceCheck(walked:)` of each set
    /// of walked entities met so far. A class, so that the shape's SQL, kept by value in its
    /// connection's cache, fills it in place; like the connection, it is used by one thread at a
    /// time.
    private let byWalked = StatementsByWalked()

    private final class StatementsByWalked {
        var statements: [LinkedKey: LinkedStatements] = [:]
        var sourceVersions: [Set<Int>: (lock: String, check: String)] = [:]
        /// `sourceLock(walked:fromMap:)` from the map, built only for large clones.
        var mapLocks: [Set<Int>: String] = [:]
    }

    /// The statements that find the objects the copies link, count them and lock those whose
    /// ordered lists gain the copies.
    struct LinkedStatements {
        /// Fill the linked table (`linkedInsert`); also what a dry run reports.
        let queries: [String]
        /// `linkedLockSQL` of `linkableTags`, for a clone that sets no relationship of the root.
        let lock: String
        /// The entities whose objects the copies can link (shared destinations), locked before
        /// they are written.
        let linkableTags: Set<Int>
        /// Of those, the entities whose ordered list the copies join at its end: their end is read
        /// before the inserts, so they are locked for update before it (the others only when
        /// their version steps, at the end).
        let orderedTags: Set<Int>

        init(queries: [String], lock: String, linkableTags: Set<Int>, orderedTags: Set<Int>) {
            self.queries = queries
            self.lock = lock
            self.linkableTags = linkableTags
            self.orderedTags = orderedTags
        }

        init(_ selects: [GraphCopyLinkedSelect], schema: StoreSchema) {
            let tags = Set(selects.map(\.tag)), ordered = Set(selects.filter(\.ordered).map(\.tag))
            self.init(
                queries: PostgreSQLGraphCopySQL.linkedInsert(selects.map(\.sql)).map { [$0] } ?? [],
                lock: PostgreSQLGraphCopySQL.linkedLockSQL(tags: Array(tags), exclusiveTags: ordered, schema: schema),
                linkableTags: tags, orderedTags: ordered)
        }
    }
    private(set) var follows: [GraphCopyFollowStep] = []
    /// Transaction-scoped advisory locks, one per attribute the copy gives a suffixed value, in
    /// `CopySuffixLock`'s order: taken before the inserts, so that two clones never read the same free number
    /// (under READ COMMITTED each insert then sees the values the clone before it committed).
    private(set) var suffixLocks: [String] = []
    /// `followParent` attributes the INSERT writes itself, reading the parent's clone.
    private(set) var inlineFollows: Set<String> = []

    init(plan: GraphCopyPlan, schema: StoreSchema, settings: [String: Setting], perCopyWalk: Bool, sequences: [String]) {
        self.schema = schema
        self.sequences = sequences
        self.plan = plan
        self.settings = settings
        self.perCopyWalk = perCopyWalk
        self.scope = GraphCopyScope(plan: plan, schema: schema)
        let entities = scope.entities
        self.inlineFollows = inlinableFollows(entities: entities)
        // The steps first: the walk counts what their inserts need to know.
        self.entitySteps = entities.map(entityStep)
        if !perCopyWalk {
            let settings = settings
            let rootEntity = plan.rootEntity
            // Copies that walk alike: a relationship of the root a `set` names is set in all.
            self.walkPathList = walkPaths { $0.source == rootEntity && settings[$0.name] != nil }
        }
        self.walk = walkSQL(limit: firstWalkLimit)
        let linkedSelects = linkedSelects(entities: entities)
        self.linkedSelects = linkedSelects
        self.everyLinked = LinkedStatements(linkedSelects, schema: schema)
        self.joinInserts = schema.joinTables.flatMap(joinTableInserts)
        self.follows = followSteps
        self.versionSteps = Dictionary(
            uniqueKeysWithValues: everyLinked.linkableTags.map { ($0, PostgreSQLGraphCopySQL.versionStep(entity: schema.model.entities[$0].name)) })
        self.mapFill = mapFillSQL(dryRun: false)
        self.mapFillDryRun = mapFillSQL(dryRun: true)
        self.suffixLocks = CopySuffixLock.inLockOrder(suffixedAttributeNames).map(CopySuffixLock.name).compactMap(Dialect.transactionLock(named:))
    }

    // MARK: PostgreSQL's spelling of the shared SQL

    static let cloneTime = "$2::timestamptz"

    var insertOrder: String { "ORDER BY m.new" }

    /// Copy 1's links stand for all unless copies set different relationships of the root, and
    /// so walk differently.
    var linkedCopy: Int? { perCopyWalk ? nil : 1 }

    func rowSource(_ entity: EntityDescription) -> String { quoted(entity.name) }

    func setAtRoot(_ entity: String, _ property: String, alias: String) -> String? {
        setting(entity, property).map { isSetRoot($0, alias: alias) }
    }

    func rootSetReference(_ property: String, alias: String) -> String {
        setValue(settings[property]!, alias: alias)
    }

    /// The rule's expression typed before it meets the set value: a followParent with no parent
    /// in reach is all NULL branches, which PostgreSQL reads as text, and a CASE of text and the
    /// set value's uuid (or int8, ...) cannot be matched.
    func settingAttribute(_ attribute: AttributeDescription, of entity: String, over expression: String) -> String {
        guard let setting = setting(entity, attribute.name) else { return expression }
        return "CASE WHEN \(isSetRoot(setting)) THEN \(setValue(setting)) ELSE \(typed(expression, attribute.type)) END"
    }

    func attributeSetCondition(_ attribute: AttributeDescription, of entity: String) -> String? {
        setting(entity, attribute.name).map { isSetRoot($0) }
    }

    /// Copies that set a relationship of the root walk apart (`perCopyWalk`): only those that
    /// set it leave it unwalked from their root.
    func walkSkipsFromRoot(_ entity: String, _ property: String, arrival w: String) -> String? {
        setting(entity, property).map { $0.inEveryCopy ? "\(w).via <> -1" : "(\(w).via <> -1 OR NOT ($\($0.flags)::bool[])[\(w).cp])" }
    }

    private func setting(_ entity: String, _ property: String) -> Setting? {
        isRootEntity(entity) ? settings[property] : nil
    }

    /// True for the row of a copy's root whose copy sets `setting` (`alias` is the map row).
    private func isSetRoot(_ setting: Setting, alias: String = "m") -> String {
        setting.inEveryCopy ? "\(alias).pold IS NULL" : "(\(alias).pold IS NULL AND ($\(setting.flags)::bool[])[\(alias).cp])"
    }

    private func setValue(_ setting: Setting, alias: String = "m") -> String {
        "($\(setting.values))[\(alias).cp]"
    }

    // MARK: 1. Walk

    /// The recursive walk as a CTE named `w` (rows `cp, ent, id, via, pent, pid, ver`), from the
    /// root when `startsIf` holds.
    private func walkCTE(startsIf condition: String? = nil) -> String {
        let root = "\(rootTag)::int4, $1::int8, -1::int4, NULL::int4, NULL::int8, r.\"_version\"::int8 FROM \(quoted(plan.rootEntity)) r"
        let starts = condition.map { " AND \($0)" } ?? ""
        let start =
            perCopyWalk
            ? "SELECT c::int4, \(root) CROSS JOIN generate_series(1, $3::int8) c WHERE r.\"_id\" = $1\(starts)"
            : "SELECT 0::int4, \(root) WHERE r.\"_id\" = $1\(starts)"
        let edges = walkEdges.map { edge in
            // The join beside the entity, where the statement has always had it.
            var conditions = walkConditions(edge, arrival: "w", row: "t")
            conditions.insert("t.\(quoted(edge.join.sourceColumn)) = w.id", at: 1)
            // The version each object has in the walk's snapshot (`sourceLock`): the edge's own
            // row when it is the destination's, else the destination's row joined.
            let ownRow = edge.join.table == edge.relationship.destination && edge.join.destinationColumn == "_id"
            let version = ownRow ? "t.\"_version\"" : "d.\"_version\""
            let destination =
                ownRow
                ? "" : " JOIN \(quoted(edge.relationship.destination)) d ON d.\"_id\" = t.\(quoted(edge.join.destinationColumn))"
            return """
                SELECT \(edge.destinationTag)::int4, t.\(quoted(edge.join.destinationColumn))::int8, \(edge.via)::int4, \(version)::int8 \
                FROM \(quoted(edge.join.table)) t\(destination) WHERE \(conditions.joined(separator: " AND "))
                """
        }
        var body = start
        if !edges.isEmpty {
            body +=
                "\nUNION\nSELECT w.cp, e.ent, e.id, e.via, w.ent, w.id, e.ver FROM w CROSS JOIN LATERAL (\n"
                + edges.joined(separator: "\nUNION ALL\n") + "\n) e(ent, id, via, ver)"
        }
        return "WITH RECURSIVE w(cp, ent, id, via, pent, pid, ver) AS (\n" + body + "\n)"
    }

    /// `limit`: rows taken from the recursion, which PostgreSQL evaluates only as far as they
    /// are read, so the walk ends there rather than after every object.
    private func walkSQL(limit: Int?) -> String {
        // `seq` numbers the rows in the order the walk finds them (its first arrival at an object
        // names the object's parent): a window over the CTE's scan, far cheaper than an identity
        // column's nextval per row.
        // The same statement answers the objects per entity (all copies of a shared walk counted
        // once), from the rows it wrote rather than by reading the table again.
        walkCTE(startsIf: largeRootProbe.map { "(\($0)) < \(PostgreSQLGraphCopySQL.firstWalkRows)" }) + ", "
            + "written AS (INSERT INTO \(PostgreSQLGraphCopySQL.walkTable) (seq, cp, ent, id, via, pent, pid, ver) "
            + "SELECT row_number() OVER (), cp, ent, id, via, pent, pid, ver FROM \(walkRows(limit: limit)) RETURNING cp, ent, id, via) "
            + walkAnswers(rows: "written", objects: "(SELECT DISTINCT cp, ent, id FROM written) d")
    }

    /// Counts the root's objects one edge away along the ways (`walkPathList`), up to
    /// `firstWalkRows`: that many, and the first walk would stop at its limit with nothing
    /// learned but that the clone is large, after a thousand rows written, thrown away and
    /// truncated. Nil where the walk goes by the
    /// recursion, or where the first walk's limit is the object limit's, which it must count
    /// exactly.
    private var largeRootProbe: String? {
        guard let paths = walkPathList, walkRowLimit > PostgreSQLGraphCopySQL.firstWalkRows else { return nil }
        return rootWaysProbe(paths, limit: PostgreSQLGraphCopySQL.firstWalkRows)
    }

    private func walkRows(limit: Int?) -> String {
        limit.map { "(SELECT * FROM w LIMIT \($0)) w" } ?? "w"
    }

    /// What a walk answers, from its rows (`cp, ent, id, via`) and its objects (`ent`, one row
    /// per object).
    private func walkAnswers(rows: String, objects: String) -> String {
        // Under entity -2 - tag, the objects of a two-insert step that did not come by an arrival
        // that keeps them in their place (`EntityStep.keepsPlaceArrivals`): only those can join an
        // original's list, so without them the step's second insert is left out.
        let checked = entitySteps.compactMap { step in step.keepsPlaceArrivals.map { (step.tag, $0) } }
        var mayAppend = ""
        if !checked.isEmpty {
            let keeps = checked.map { tag, vias in
                "WHEN \(tag) THEN " + vias.map { "bool_or(via = \($0))" }.joined(separator: " AND ")
            }
            mayAppend =
                " UNION ALL SELECT -2 - ent, count(*) FROM (SELECT ent FROM \(rows) WHERE ent IN ("
                + checked.map { String($0.0) }.joined(separator: ", ") + ") GROUP BY cp, ent, id "
                + "HAVING NOT (CASE ent " + keeps.joined(separator: " ") + " END)) a GROUP BY ent"
        }
        return "SELECT ent, count(*) FROM \(objects) GROUP BY ent UNION ALL SELECT -1, count(*) FROM \(rows)" + mayAppend
    }

    /// A large clone's walk, written straight into the map by the statement that walks: the map's
    /// fill reads the walk's rows where the recursion leaves them, so they are never written to
    /// the walk table and read back, and a large clone reads no walk table at all — its lock reads
    /// the versions the map keeps, one row per object (`sourceLock(walked:fromMap:)`), rather than
    /// the walk's rows, of which an object reached twice has two.
    /// Where the model allows, the walk is one join per way down it (`walkByPaths`) rather than
    /// the recursion. It answers as `walk` does; the map is written only when the walk ended
    /// within its stop (`limited`, after `walkRowLimit` rows) and found no more objects than the
    /// plan allows, so a clone too large takes no id. `dryRun` takes none either way, as
    /// `mapFillDryRun`.
    func walkIntoMap(limited: Bool, dryRun: Bool) -> String {
        let bounded = walkRowLimit != Int.max
        let limit = limited && bounded ? walkRowLimit : nil
        let walk: WalkParts
        if let byPaths = walkByPaths(limit: limit) {
            walk = byPaths
        } else {
            walk = (
                ctes: walkCTE() + ", walked AS MATERIALIZED (SELECT row_number() OVER () AS seq, * FROM \(walkRows(limit: limit)))",
                firstArrivals: Self.firstArrivals(walkRows: "walked"), rowCount: "(SELECT count(*) FROM walked)",
                answers: walkAnswers(rows: "walked", objects: "f")
            )
        }
        var guards: [String] = []
        if limit != nil { guards.append("\(walk.rowCount) < \(walkRowLimit)") }
        if bounded { guards.append("(SELECT count(*) FROM f) < \(walkRowLimit)") }
        return walk.ctes + ", " + mapSteps(firstArrivals: walk.firstArrivals, dryRun: dryRun)
            + ", mapped AS (INSERT INTO \(map) \(Self.mapColumns) \(mapRows)"
            + (guards.isEmpty ? "" : " WHERE " + guards.joined(separator: " AND ")) + ") "
            + walk.answers
    }

    /// Locks every walked object `FOR SHARE` (entity by entity in tag order, rows in `_id` order),
    /// answering how many rows it locked, how many distinct objects the walk found, and how many
    /// of the locked rows have another `_version` than the walk read. `FOR SHARE` keeps every
    /// walked row as it is until the clone commits (an edit, a move or a delete of one waits),
    /// while other clones of the same source lock the same rows beside it. The rows are sorted
    /// before they are locked, so two transactions locking overlapping sets take them in one
    /// order.
    ///
    /// Why the versions suffice to know the locked rows are the source: every change of a
    /// relationship steps the versions of both its ends, so a walked object whose version is the
    /// walk's has the same relationships as when the walk read it — and with every walked object
    /// unchanged, a walk from the root now would find the same objects. A version that moved
    /// (any edit, in the moments between the walk and its lock) or a row gone makes the copy run
    /// again (`PostgreSQLGraphCopier`). Walking a second time to compare, as this once did, cost
    /// as much as the walk itself: a fifth of a 10,000-item clone's server time.
    ///
    /// Only the entities the walk found objects of (`walked`, their tags) are named: every entity
    /// named is a part of the plan that PostgreSQL sets up at each run, found rows or not.
    /// `fromMap`: the versions are read where a walk into the map (`walkIntoMap`) kept them.
    func sourceLock(walked: Set<Int>, fromMap: Bool = false) -> String {
        guard fromMap else { return sourceVersions(walked: walked).lock }
        if let known = byWalked.mapLocks[walked] { return known }
        let lock = sourceLockSQL(model.entities.filter { walked.contains(tag($0.name)) }, versions: mapVersions)
        byWalked.mapLocks[walked] = lock
        return lock
    }

    /// The same answers as `sourceLock`, without locking: sent after a small clone's last read of
    /// its source. Versions only grow, and every change of a relationship steps both its ends, so
    /// when every walked object still has the walk's version, no change to the source was
    /// committed between the walk and this check, and every statement between them read the
    /// source as the walk did. Concurrent clones of one template then hold no lock on its rows
    /// (`FOR SHARE` writes each row it locks, and several lockers make a multixact of it), and an
    /// edit of the template never waits for the clones in flight.
    func sourceCheck(walked: Set<Int>) -> String {
        sourceVersions(walked: walked).check
    }

    private func sourceVersions(walked: Set<Int>) -> (lock: String, check: String) {
        if let known = byWalked.sourceVersions[walked] { return known }
        let entities = model.entities.filter { walked.contains(tag($0.name)) }
        let statements = (lock: sourceVersionsSQL(entities, locking: true), check: sourceVersionsSQL(entities, locking: false))
        byWalked.sourceVersions[walked] = statements
        return statements
    }

    /// The first walk's room for sorts and hashes, set just before it and given back just after
    /// (`afterFirstWalk`). The walk's recursion keeps a table of the rows it has seen, which
    /// PostgreSQL allocates whole and zeroed when the statement starts, sized by the planner's
    /// guess of the rows up to twice `work_mem`. A recursive walk is guessed at ten times what its
    /// recursive step is guessed to add, so under the server's default `work_mem` a walk that
    /// stops at 1,001 rows began by zeroing a table many times its size, which took longer than
    /// the walk itself. The walk holds at most `firstWalkRows` rows, and the table grows past its
    /// room if it must.
    static let firstWalkMemory = "SET LOCAL work_mem = '256kB'"
    static let afterFirstWalk = "SET LOCAL work_mem TO DEFAULT"

    /// A clone starts with generic plans joined by nested loops (see `PostgreSQLGraphCopier.run`);
    /// a large one gives the rest of its transaction the session's own settings back from its
    /// walk into the map on, so that its statements are planned for the rows it has — with room
    /// for its sorts and hashes kept in memory rather than spilled to disk. Not for its first
    /// walk: the walk's recursion sizes its table of rows seen by its estimate, up to this room,
    /// and allocates it whole, which makes a large walk slower. Kept to nested loops, a large
    /// clone's statements would join its many rows one index lookup each where a hash join reads
    /// the table once.
    /// The map's `ANALYZE` samples 3,000 rows rather than 30,000: what its plans need is how many
    /// rows each entity has and that `old` is unique. The sample tells both (its list of common
    /// values holds ten entities; a clone of more shares the rest's rows out evenly) at a fraction
    /// of a full sample's cost.
    /// `SET LOCAL … TO DEFAULT` gives a setting the session's value back as `RESET` would, where
    /// reading it from `pg_settings` built the view's every row, three times, for one value each.
    static let plannerDefaults =
        ["plan_cache_mode", "enable_hashjoin", "enable_mergejoin"].map { "SET LOCAL \($0) TO DEFAULT" }
        + ["SELECT set_config('work_mem', '64MB', true), set_config('default_statistics_target', '10', true)"]

    private func sourceVersionsSQL(_ entities: [EntityDescription], locking: Bool) -> String {
        guard locking else { return sourceCheckSQL(entities) }
        return sourceLockSQL(entities, versions: walkVersions)
    }

    /// Where a lock reads the walked objects: each entity's objects with their versions (`id,
    /// ver`, one row per object), and all of them (one row per object).
    private struct VersionSource {
        let ofEntity: (Int) -> String
        let objects: String
    }

    /// The walk table's rows: an object reached by several edges (or by several copies' walks)
    /// has a row for each, all read in one snapshot, so one version.
    private var walkVersions: VersionSource {
        let walked = PostgreSQLGraphCopySQL.walkTable
        return VersionSource(
            ofEntity: { "(SELECT DISTINCT id, ver FROM \(walked) WHERE ent = \($0))" }, objects: "(SELECT DISTINCT ent, id FROM \(walked))")
    }

    /// The map's rows (`walkIntoMap`): every copy of a shared walk maps the same objects, read
    /// through the map's key without a sort; copies that walk apart may map different ones.
    private var mapVersions: VersionSource {
        perCopyWalk
            ? VersionSource(
                ofEntity: { "(SELECT DISTINCT old AS id, ver FROM \(map) WHERE ent = \($0))" }, objects: "(SELECT DISTINCT ent, old FROM \(map))")
            : VersionSource(
                ofEntity: { "(SELECT old AS id, ver FROM \(map) WHERE ent = \($0) AND cp = 1)" }, objects: "(SELECT 1 FROM \(map) WHERE cp = 1)")
    }

    private func sourceLockSQL(_ entities: [EntityDescription], versions: VersionSource) -> String {
        let ctes = entities.map { entity in
            "s\(tag(entity.name)) AS (SELECT t.\"_version\" <> w.ver AS moved FROM \(quoted(entity.name)) t "
                + "JOIN \(versions.ofEntity(tag(entity.name))) w ON t.\"_id\" = w.id"
                + " ORDER BY t.\"_id\" FOR SHARE OF t)"
        }
        let counted = entities.map { "(SELECT count(*) FROM s\(tag($0.name)))" }.joined(separator: " + ")
        let moved = entities.map { "(SELECT count(*) FROM s\(tag($0.name)) WHERE moved)" }.joined(separator: " + ")
        return "WITH " + ctes.joined(separator: ", ") + " SELECT " + counted
            + ", (SELECT count(*) FROM \(versions.objects) d), " + moved
    }

    /// The check without the lock, in one pass over the walked objects: each looks up its row
    /// in its entity's table (a branch per entity, only its own run). The lock's form (a CTE per
    /// entity, each counted twice) has a larger plan, and starting a plan is much of a small
    /// clone's server time; the lock keeps that form because it must take the rows in one order, entity by
    /// entity, and PostgreSQL takes no row lock through a `UNION`. An object has one version in
    /// the walk (one statement, one snapshot), so its rows there are one row here.
    private func sourceCheckSQL(_ entities: [EntityDescription]) -> String {
        let walked = "(SELECT DISTINCT ent, id, ver FROM \(PostgreSQLGraphCopySQL.walkTable)) w"
        guard !entities.isEmpty else { return "SELECT 0::int8, count(*), 0::int8 FROM \(walked)" }
        let branches = entities.map { entity in
            "SELECT t.\"_version\" FROM \(quoted(entity.name)) t WHERE w.ent = \(tag(entity.name)) AND t.\"_id\" = w.id"
        }
        return "SELECT count(v.ver), count(*), count(*) FILTER (WHERE v.ver <> w.ver) FROM \(walked) "
            + "LEFT JOIN LATERAL (" + branches.joined(separator: " UNION ALL ") + ") v(ver) ON true"
    }

    /// The linked objects' fill and lock of a clone whose walk found objects of the entities
    /// `walked` only, and objects that may join an original's list (`mayAppend`, counted by the
    /// walk) of those steps only. Each select of a shared edge reads the map rows of one entity's
    /// copies, so the selects of entities the walk did not find are left out, and with them the
    /// lock of entities only those could link: a template that reaches few of the model's
    /// entities plans and starts smaller statements (a 5-object note of the sample model: 4 of 6
    /// selects, 3 of 5 locks). So is the select of an entity's one ordered reference when none
    /// of its objects may join an original's list: each came through that list from the walked
    /// object it names, which every copy maps (a note's items and memos: 2 of those 4 selects,
    /// and the note's lock for update). The statements are the shape's own when every source
    /// was walked and may append.
    func linkedStatements(walked: Set<Int>, mayAppend: Set<Int>) -> LinkedStatements {
        let key = LinkedKey(walked: walked, mayAppend: mayAppend)
        if let known = byWalked.statements[key] { return known }
        let keepPlace = Set(entitySteps.filter { $0.keepsPlaceArrivals?.count == 1 && !mayAppend.contains($0.tag) }.map(\.tag))
        let selects = linkedSelects.filter { select in
            walked.contains(select.source) && !(select.reference && select.ordered && keepPlace.contains(select.source))
        }
        let statements = selects.count == linkedSelects.count ? everyLinked : LinkedStatements(selects, schema: schema)
        byWalked.statements[key] = statements
        return statements
    }

    /// What the linked statements of a clone depend on beyond the shape (`linkedStatements`).
    struct LinkedKey: Hashable {
        let walked: Set<Int>
        let mayAppend: Set<Int>
    }

    /// Counts the objects the copies link, and locks those of `exclusiveTags` whose version
    /// steps `FOR NO KEY UPDATE` (entity by entity in tag order, rows in `_id` order), since the
    /// end of their ordered list is read next. The others are locked only when their version
    /// steps (`versionStep`), last before the commit, and the copies' references to them are
    /// checked by their deferred foreign keys at the commit, after that step: so a clone holds no
    /// lock on them beside other clones. A `FOR KEY SHARE` lock here, as this once took, held by
    /// every clone in flight while each in turn stepped the version, made PostgreSQL keep a
    /// multixact of them on every version of the row, which every later reader looked up — a cost
    /// that grew with the clones in flight (three replicas on one template were slower than one). An object deleted between this
    /// count and the commit fails that foreign-key check, and the clone runs again
    /// (`PostgreSQLCloneSession.commitFailure`). Answers each entity's linked count beside the
    /// rows found.
    static func linkedLockSQL(tags: [Int], exclusiveTags: Set<Int>, schema: StoreSchema) -> String {
        let linked = linkedTable
        var ctes: [String] = []
        var counted: [String] = []
        for tag in tags.sorted() {
            let table = quoted(schema.model.entities[tag].name)
            let modes: [(name: String, condition: String, lock: String?)] =
                exclusiveTags.contains(tag) ? [("u", "AND bump = 1", "NO KEY UPDATE"), ("k", "AND bump = 0", nil)] : [("k", "", nil)]
            for (name, condition, mode) in modes {
                ctes.append(
                    "\(name)\(tag) AS (SELECT 1 FROM \(table) t WHERE t.\"_id\" IN "
                        + "(SELECT id FROM \(linked) WHERE ent = \(tag) \(condition))" + (mode.map { " ORDER BY t.\"_id\" FOR \($0) OF t)" } ?? ")"))
                counted.append("(SELECT count(*) FROM \(name)\(tag))")
            }
        }
        let lockedCount = counted.isEmpty ? "0" : counted.joined(separator: " + ")
        return (ctes.isEmpty ? "" : "WITH " + ctes.joined(separator: ", ") + " ")
            + "SELECT l.ent, count(*), (SELECT \(lockedCount)) FROM \(linked) l GROUP BY l.ent"
    }

    /// One step of the version of every linked object of `entity` whose version steps: its rows
    /// locked in `_id` order first (so two clones stepping the same objects wait rather than
    /// deadlock), then updated by a statement of its own. `$1` is the entity's tag.
    ///
    /// Two statements, because one would deadlock: an UPDATE whose CTE locks the rows reads them
    /// again with the snapshot it started with, and a row another clone stepped and committed
    /// while this one waited for its lock is, in that snapshot, the older version — whose update
    /// waits on the row's tuple lock that the next clone in the queue holds while it waits for
    /// this one. PostgreSQL found such a cycle a few times a second with 32 clients on one tag,
    /// each costing its clone the one-second `deadlock_timeout` and a run again. The update's own
    /// statement reads the rows as this transaction locked them.
    static func versionStep(entity: String) -> [String] {
        let table = quoted(entity)
        let stepping = "SELECT id FROM \(linkedTable) WHERE ent = $1 AND bump = 1"
        return ["SELECT 1 FROM \(table) t WHERE t.\"_id\" IN (\(stepping)) ORDER BY t.\"_id\" FOR NO KEY UPDATE OF t", versionStep(of: entity)]
    }

    // MARK: 2. Map

    /// The map rows of every copied object, all copies and entities in one statement. New ids come
    /// from each table's sequence (never handed out twice, even to concurrent clones): `nextval`
    /// runs after the sort (PostgreSQL evaluates volatile output columns after ORDER BY), so a
    /// copy's ids follow its originals' order. The numbered rows are materialised once (a CTE
    /// named twice) and joined to themselves for each parent's new id, so no UPDATE of the map
    /// follows. The sequences are constants, resolved when the statement is planned (`q`). A dry
    /// run only reads where each sequence stands.
    private func mapFillSQL(dryRun: Bool) -> String {
        "INSERT INTO \(map) \(Self.mapColumns) WITH " + mapSteps(firstArrivals: Self.firstArrivals(walkRows: PostgreSQLGraphCopySQL.walkTable), dryRun: dryRun)
            + " "
            + mapRows
    }

    static let mapColumns = "(cp, ent, old, new, pent, pold, pnew, ver)"
    /// The map's rows from `n`, each with its parent's new id where a followed value reads it
    /// (`parentCloneReads`): joined to the parents' entities' rows only, so the join hashes the
    /// few notes of a note's items rather than every row of the map.
    var mapRows: String {
        let reads = parentCloneReads
        guard !reads.isEmpty else { return "SELECT n.cp, n.ent, n.id, n.new, n.pent, n.pid, NULL::int8, n.ver FROM n" }
        let readers = reads.keys.sorted().map(String.init).joined(separator: ", ")
        let parents = Set(reads.values.joined()).sorted().map(String.init).joined(separator: ", ")
        return "SELECT n.cp, n.ent, n.id, n.new, n.pent, n.pid, p.new, n.ver FROM n LEFT JOIN (SELECT cp, ent, id, new FROM n WHERE ent IN (\(parents))) p "
            + "ON n.ent IN (\(readers)) AND p.cp = n.cp AND p.ent = n.pent AND p.id = n.pid"
    }

    /// The first arrival at each object (`cp, ent, id, pent, pid, ver`) among the rows of a walk
    /// (`seq, cp, ent, id, pent, pid, ver`): the row of lowest `seq`.
    private static func firstArrivals(walkRows: String) -> String {
        "SELECT DISTINCT ON (cp, ent, id) cp, ent, id, pent, pid, ver FROM \(walkRows) ORDER BY cp, ent, id, seq"
    }

    /// The map fill's CTEs over the first arrival at each object (`firstArrivals`): `f` those,
    /// `n` the map's rows with their new ids (`mapRows` selects them with each parent's).
    private func mapSteps(firstArrivals: String, dryRun: Bool) -> String {
        var sequences = [String](repeating: "NULL", count: model.entities.count)
        for step in entitySteps {
            sequences[step.tag] = "'\(self.sequences[step.tag].replacingOccurrences(of: "'", with: "''"))'"
        }
        let newID =
            dryRun
            ? "coalesce(pg_sequence_last_value(q.seqs[s.ent + 1]), 0) + row_number() OVER (PARTITION BY s.ent ORDER BY s.cp, s.id)"
            : "nextval(q.seqs[s.ent + 1])"
        return """
            q AS MATERIALIZED (SELECT ARRAY[\(sequences.joined(separator: ", "))]::regclass[] AS seqs), \
            f AS (\(firstArrivals)), \
            s AS (SELECT c.cp, f.ent, f.id, f.pent, f.pid, f.ver FROM f JOIN generate_series(1, $3::int8) c(cp) ON f.cp = 0 OR f.cp = c.cp), \
            n AS (SELECT s.cp, s.ent, s.id, s.pent, s.pid, s.ver, \(newID) AS new FROM s, q ORDER BY s.ent, s.cp, s.id)
            """
    }

    // MARK: 3–4. Insert per entity

    private func entityStep(_ entity: EntityDescription) -> EntityStep {
        let inserts = rowInserts(entity)
        var arrivals: [Int]?
        if inserts.count == 2 {
            let ordered = (schema.foreignKeys[entity.name] ?? []).filter { $0.positionColumn != nil }
            let vias = ordered.compactMap { foreignKey in
                entity.relationship(named: foreignKey.relationship!).flatMap { model.inverse(of: $0) }
                    .flatMap { relationshipIndex[$0.qualifiedName] }
            }
            arrivals = vias.count == ordered.count ? vias : nil
        }
        return EntityStep(name: entity.name, tag: tag(entity.name), inserts: inserts, keepsPlaceArrivals: arrivals)
    }

    // MARK: 6. followParent

    /// One recursive query pushes each chain top's value down every level of the clone, through
    /// the map's index by parent.
    func followPropagation(_ follow: GraphCopyFollow) -> [String] {
        let entityTag = tag(follow.entity.name)
        let table = quoted(follow.entity.name)
        let column = quoted(follow.attribute.name)
        return [
            """
            WITH RECURSIVE chain(new, value, top) AS (\
            SELECT m.new, e.\(column), true FROM \(map) m JOIN \(table) e ON e."_id" = m.new \
            WHERE m.ent = \(entityTag) AND (m.pnew IS NULL OR m.pent <> \(entityTag)) \
            UNION ALL SELECT c.new, chain.value, false FROM chain JOIN \(map) c ON c.ent = \(entityTag) AND c.pent = \(entityTag) AND c.pnew = chain.new\
            ) UPDATE \(table) t SET \(column) = chain.value FROM chain WHERE NOT chain.top AND t."_id" = chain.new
            """
        ]
    }
}
