import ClonerModel

/// The SQL of one graph copy on PostgreSQL, derived from the schema and a `GraphCopyPlan` — and
/// from nothing else: no object has been read yet. It is `SQLiteGraphCopySQL`'s algorithm in
/// PostgreSQL's dialect; its size grows with the model, never with the objects or the copies.
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
///    the walk table and answers the objects found per entity.
/// 2. `mapFill`: one statement for every entity: old → new `_id` per copy, new ids from each
///    table's sequence handed out in (copy, old id) order, and each object's parent — its first
///    arrival in the walk — with the parent's new `_id`, joined within the same statement.
/// 3. `linkedQueries`: the shared objects the copies link to (also what a dry run reports).
/// 4. per entity, `inserts`: INSERT … SELECT copying rows inside the server (blobs never reach
///    Swift), applying the attribute rules and re-pointing references into the same copy.
/// 5. `joinInserts`: links of join tables, re-pointed or shared.
/// 6. `follows`: `followParent` attributes, from the parent's clone, once every row exists.
///
/// Row aliases as in the SQLite builder: `m` is the object's map row (`cp`, `old`, `new`, `pent`,
/// `pold`, `pnew`), `o` the original row; `m.pold IS NULL` tells a copy's root apart.
struct PostgreSQLGraphCopySQL {
    struct EntityStep {
        let name: String
        let tag: Int
        /// One INSERT … SELECT, or two when ordered references split the rows.
        let inserts: [String]
    }

    struct FollowStep {
        let entity: String
        let attribute: String
        /// The update, then (for an attribute following itself) the push down each chain.
        let statements: [String]
    }

    /// How one property the root's `set` names is passed: parameter numbers of its per-copy values
    /// and flags, and whether every copy sets it.
    struct Setting {
        let values: Int
        let flags: Int
        let inEveryCopy: Bool
    }

    static let walkTable = "pg_temp.\"_clone_walk\""
    static let mapTable = "pg_temp.\"_clone_map\""
    static let linkedTable = "pg_temp.\"_clone_linked\""

    let schema: StoreSchema
    let root: EntityDescription
    /// The first plan of its shape (`GraphCopyShape`): read while the statements are built, and
    /// never for a value, which later clones of the shape give as parameters.
    private let plan: GraphCopyPlan
    let rootTag: Int
    let settings: [String: Setting]
    let perCopyWalk: Bool
    /// The walk, stopped after `walkRowLimit` rows: past the object limit it need not go on to
    /// tell the clone is too large. Its answer carries the rows walked under entity -1. An object
    /// reached by several edges is a row per edge, so a walk stopped with no more objects than
    /// the limit is redone without the stop (`walkWithoutLimit`).
    private(set) var walk: String
    private(set) var walkWithoutLimit: String
    /// Rows the walk stops at: one more than the objects it may find (a walk shared by the copies
    /// finds each copy's objects once).
    var walkRowLimit: Int {
        let objects = perCopyWalk ? plan.maximumObjects : plan.maximumObjects / max(plan.copies, 1)
        return objects == Int.max ? Int.max : objects + 1  // an unlimited plan must not overflow
    }
    /// The walk run again once the source is locked, answering how many objects it finds that the
    /// first walk did not, and the other way round: 0 means the locked rows are the graph.
    private(set) var walkCheck: String = ""
    private(set) var entitySteps: [EntityStep]
    /// `linkedLockSQL` of `linkableTags`, for a clone that sets no relationship of the root.
    private(set) var linkedLock = ""
    /// `versionStep` of each of `linkableTags`.
    private(set) var versionSteps: [Int: String] = [:]
    /// The map's fill (`mapFillSQL`), and a dry run's, which takes no ids.
    private(set) var mapFill = ""
    private(set) var mapFillDryRun = ""
    private(set) var linkedQueries: [String]
    private(set) var joinInserts: [String]
    private(set) var follows: [FollowStep]
    /// The entities whose objects the walk can link (shared destinations), for the lock taken on
    /// them before they are written.
    private(set) var linkableTags: Set<Int> = []
    /// Of those, the entities whose ordered list the copies join at its end: their end is read
    /// before the inserts, so they are locked for update before it (the others only when their
    /// version steps, at the end).
    private(set) var orderedLinkTags: Set<Int> = []
    private let rootExclusions: Set<String>
    private let relationshipIndex: [String: Int]
    /// The entities the walk can reach (set once in `init`, before the statements are built).
    private var reachable: Set<String> = []

    init(plan: GraphCopyPlan, schema: StoreSchema, settings: [String: Setting], perCopyWalk: Bool) {
        guard let root = schema.model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        self.schema = schema
        self.root = root
        self.plan = plan
        self.settings = settings
        self.perCopyWalk = perCopyWalk
        self.rootTag = schema.entityTag(root.name)
        self.rootExclusions = plan.excludedAtRoot.union(plan.rootLinks.keys)
        var index: [String: Int] = [:]
        for relationship in schema.model.entities.flatMap(\.relationships) { index[relationship.qualifiedName] = index.count }
        self.relationshipIndex = index
        self.walk = ""
        self.walkWithoutLimit = ""
        self.entitySteps = []
        self.linkedQueries = []
        self.joinInserts = []
        self.follows = []
        let reachable = reachableEntities()
        self.reachable = reachable
        let entities = schema.model.entities.filter { reachable.contains($0.name) }
        self.walk = walkSQL(limit: walkRowLimit)
        self.walkWithoutLimit = walkSQL(limit: nil)
        self.walkCheck = walkCheckSQL()
        self.entitySteps = entities.map(entityStep)
        let linkedSelects = entities.flatMap(entityLinkedQueries) + schema.joinTables.flatMap { joinLinkedQueries($0, reachable: reachable) }
        self.linkedQueries = PostgreSQLGraphCopySQL.linkedInsert(linkedSelects.map(\.sql))
        self.linkableTags = Set(linkedSelects.map(\.tag))
        self.orderedLinkTags = Set(linkedSelects.filter(\.ordered).map(\.tag))
        self.joinInserts = schema.joinTables.flatMap { joinTableInserts($0, reachable: reachable) }
        self.follows = followSteps(reachable: reachable)
        self.linkedLock = PostgreSQLGraphCopySQL.linkedLockSQL(tags: Array(linkableTags), exclusiveTags: orderedLinkTags, schema: schema)
        self.versionSteps = Dictionary(
            uniqueKeysWithValues: linkableTags.map { ($0, PostgreSQLGraphCopySQL.versionStep(entity: schema.model.entities[$0].name)) })
        self.mapFill = mapFillSQL(dryRun: false)
        self.mapFillDryRun = mapFillSQL(dryRun: true)
    }

    private var model: DataModel { schema.model }
    private var map: String { PostgreSQLGraphCopySQL.mapTable }

    private func tag(_ entity: String) -> Int { schema.entityTag(entity) }

    private func isRootEntity(_ entity: String) -> Bool { entity == root.name }

    private func isFollowed(_ relationship: RelationshipDescription) -> Bool {
        plan.isOwned(relationship) && !plan.isExcludedEverywhere(relationship.source, relationship.name)
    }

    private func excludedAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && rootExclusions.contains(property)
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

    private func reachableEntities() -> Set<String> {
        var seen: Set<String> = [root.name]
        var queue = [root.name]
        while let name = queue.popLast() {
            for relationship in model.entity(named: name)!.relationships where isFollowed(relationship) {
                if seen.insert(relationship.destination).inserted { queue.append(relationship.destination) }
            }
        }
        return seen
    }

    // MARK: 1. Walk

    /// The recursive walk as a CTE named `w` (rows `cp, ent, id, via, pent, pid`).
    private func walkCTE() -> String {
        let start =
            perCopyWalk
            ? "SELECT c::int4, \(rootTag)::int4, $1::int8, -1::int4, NULL::int4, NULL::int8 FROM generate_series(1, $3::int8) c"
            : "SELECT 0::int4, \(rootTag)::int4, $1::int8, -1::int4, NULL::int4, NULL::int8"
        var edges: [String] = []
        for entity in model.entities {
            for relationship in entity.relationships where isFollowed(relationship) {
                let join = schema.join(for: relationship)
                let destination = "t.\(quoted(join.destinationColumn))"
                var conditions = ["w.ent = \(tag(entity.name))", "t.\(quoted(join.sourceColumn)) = w.id", "\(destination) IS NOT NULL"]
                if relationship.isSelfInverse {
                    conditions.append("(w.via <> \(relationshipIndex[relationship.qualifiedName]!) OR \(destination) <> w.pid)")
                } else if let inverse = model.inverse(of: relationship), let inverseIndex = relationshipIndex[inverse.qualifiedName] {
                    conditions.append("w.via <> \(inverseIndex)")
                }
                if excludedAtRoot(entity.name, relationship.name) {
                    conditions.append("w.via <> -1")
                } else if let setting = setting(entity.name, relationship.name) {
                    conditions.append(setting.inEveryCopy ? "w.via <> -1" : "(w.via <> -1 OR NOT ($\(setting.flags)::bool[])[w.cp])")
                }
                edges.append(
                    """
                    SELECT \(tag(relationship.destination))::int4, \(destination)::int8, \(relationshipIndex[relationship.qualifiedName]!)::int4 \
                    FROM \(quoted(join.table)) t WHERE \(conditions.joined(separator: " AND "))
                    """)
            }
        }
        var body = start
        if !edges.isEmpty {
            body +=
                "\nUNION\nSELECT w.cp, e.ent, e.id, e.via, w.ent, w.id FROM w CROSS JOIN LATERAL (\n"
                + edges.joined(separator: "\nUNION ALL\n") + "\n) e(ent, id, via)"
        }
        return "WITH RECURSIVE w(cp, ent, id, via, pent, pid) AS (\n" + body + "\n)"
    }

    /// `limit`: rows taken from the recursion, which PostgreSQL evaluates only as far as they
    /// are read, so the walk ends there rather than after every object.
    private func walkSQL(limit: Int?) -> String {
        // `seq` numbers the rows in the order the walk finds them (its first arrival at an object
        // names the object's parent): a window over the CTE's scan, far cheaper than an identity
        // column's nextval per row.
        // The same statement answers the objects per entity (all copies of a shared walk counted
        // once), from the rows it wrote rather than by reading the table again.
        return walkCTE() + ", "
            + "written AS (INSERT INTO \(PostgreSQLGraphCopySQL.walkTable) (seq, cp, ent, id, via, pent, pid) "
            + "SELECT row_number() OVER (), cp, ent, id, via, pent, pid FROM "
            + (limit.map { "(SELECT * FROM w LIMIT \($0)) w" } ?? "w") + " RETURNING cp, ent, id) "
            + "SELECT ent, count(*) FROM (SELECT DISTINCT cp, ent, id FROM written) d GROUP BY ent "
            + "UNION ALL SELECT -1, count(*) FROM written"
    }

    /// See `walkCheck`: `n`, the walk's objects, is named twice and so materialised once.
    private func walkCheckSQL() -> String {
        let walked = PostgreSQLGraphCopySQL.walkTable
        return walkCTE() + ", n AS (SELECT DISTINCT cp, ent, id FROM w) "
            + "SELECT (SELECT count(*) FROM (SELECT cp, ent, id FROM n EXCEPT SELECT cp, ent, id FROM \(walked)) a) "
            + "+ (SELECT count(*) FROM (SELECT cp, ent, id FROM \(walked) EXCEPT SELECT cp, ent, id FROM n) b)"
    }

    /// Locks every walked object `FOR SHARE` (entity by entity in tag order, rows in `_id` order),
    /// answering how many rows it locked and how many distinct objects the walk found. `FOR SHARE`
    /// keeps every walked row as it is until the clone commits (an
    /// edit, a move or a delete of one waits), while other clones of the same source lock the
    /// same rows beside it. The rows are sorted before they are locked, so two transactions
    /// locking overlapping sets take them in one order.
    ///
    /// A clone starts with generic plans (see `PostgreSQLGraphCopier.run`); a large one's lock
    /// gives the rest of its transaction PostgreSQL's default back, so that its statements are
    /// planned for the rows it has.
    ///
    /// Only the entities the walk found objects of (`walked`, their tags) are named: every entity
    /// named is a part of the plan that PostgreSQL sets up at each run, found rows or not.
    func sourceLock(small: Bool, walked: Set<Int>) -> String {
        let lock = sourceLockSQL(model.entities.filter { walked.contains(tag($0.name)) })
        return small ? lock : lock + ", set_config('plan_cache_mode', 'auto', true)"
    }

    private func sourceLockSQL(_ entities: [EntityDescription]) -> String {
        let walked = PostgreSQLGraphCopySQL.walkTable
        let ctes = entities.map { entity in
            "s\(tag(entity.name)) AS (SELECT 1 FROM \(quoted(entity.name)) t WHERE t.\"_id\" IN "
                + "(SELECT id FROM \(walked) WHERE ent = \(tag(entity.name))) ORDER BY t.\"_id\" FOR SHARE OF t)"
        }
        let counted = entities.map { "(SELECT count(*) FROM s\(tag($0.name)))" }.joined(separator: " + ")
        return "WITH " + ctes.joined(separator: ", ") + " SELECT " + counted
            + ", (SELECT count(*) FROM (SELECT DISTINCT ent, id FROM \(walked)) d)"
    }

    /// Locks the objects the copies link before anything is written to them, entity by entity in
    /// tag order and rows in `_id` order. Every one `FOR KEY SHARE`, so none can be deleted under a
    /// link; those of `exclusiveTags` whose version steps `FOR NO KEY UPDATE` already, since the
    /// end of their ordered list is read next. The others are locked for update only when their
    /// version steps (`versionStep`), last before the commit, so clones of one template linking
    /// the same objects run side by side until then. Answers each entity's linked count beside
    /// the rows locked.
    static func linkedLockSQL(tags: [Int], exclusiveTags: Set<Int>, schema: StoreSchema) -> String {
        let linked = linkedTable
        var ctes: [String] = []
        var counted: [String] = []
        for tag in tags.sorted() {
            let table = quoted(schema.model.entities[tag].name)
            let modes =
                exclusiveTags.contains(tag)
                ? [("u", "AND bump = 1", "NO KEY UPDATE"), ("k", "AND bump = 0", "KEY SHARE")]
                : [("k", "", "KEY SHARE")]
            for (name, condition, mode) in modes {
                ctes.append(
                    "\(name)\(tag) AS (SELECT 1 FROM \(table) t WHERE t.\"_id\" IN "
                        + "(SELECT id FROM \(linked) WHERE ent = \(tag) \(condition)) ORDER BY t.\"_id\" FOR \(mode) OF t)")
                counted.append("(SELECT count(*) FROM \(name)\(tag))")
            }
        }
        let lockedCount = counted.isEmpty ? "0" : counted.joined(separator: " + ")
        return (ctes.isEmpty ? "" : "WITH " + ctes.joined(separator: ", ") + " ")
            + "SELECT l.ent, count(*), (SELECT \(lockedCount)) FROM \(linked) l GROUP BY l.ent"
    }

    /// One step of the version of every linked object of `entity` whose version steps, its rows
    /// locked in `_id` order first (so two clones stepping the same objects wait rather than
    /// deadlock). `$1` is the entity's tag.
    static func versionStep(entity: String) -> String {
        let table = quoted(entity)
        return "WITH locked AS (SELECT t.\"_id\" FROM \(table) t WHERE t.\"_id\" IN "
            + "(SELECT id FROM \(linkedTable) WHERE ent = $1::int4 AND bump = 1) ORDER BY t.\"_id\" FOR NO KEY UPDATE OF t) "
            + "UPDATE \(table) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" IN (SELECT \"_id\" FROM locked)"
    }

    // MARK: 2. Map

    /// The map rows of every copied object, all copies and entities in one statement. New ids come
    /// from each table's sequence (never handed out twice, even to concurrent clones): `nextval`
    /// runs after the sort (PostgreSQL evaluates volatile output columns after ORDER BY), so a
    /// copy's ids follow its originals' order. The numbered rows are materialised once (a CTE
    /// named twice) and joined to themselves for each parent's new id, so no UPDATE of the map
    /// follows. The sequences are looked up once per statement (`q`), not per row. A dry run only
    /// reads where each sequence stands.
    private func mapFillSQL(dryRun: Bool) -> String {
        var sequences = [String](repeating: "NULL", count: model.entities.count)
        for step in entitySteps {
            let table = quoted(step.name).replacingOccurrences(of: "'", with: "''")
            sequences[step.tag] = "pg_get_serial_sequence('\(table)', '_id')"
        }
        let newID =
            dryRun
            ? "coalesce(pg_sequence_last_value(q.seqs[s.ent + 1]), 0) + row_number() OVER (PARTITION BY s.ent ORDER BY s.cp, s.id)"
            : "nextval(q.seqs[s.ent + 1])"
        return """
            INSERT INTO \(map) (cp, ent, old, new, pent, pold, pnew) \
            WITH q AS MATERIALIZED (SELECT ARRAY[\(sequences.joined(separator: ", "))]::regclass[] AS seqs), \
            s AS (SELECT c.cp, w.ent, w.id, w.pent, w.pid FROM \
            (SELECT DISTINCT ON (cp, ent, id) cp, ent, id, pent, pid FROM \(PostgreSQLGraphCopySQL.walkTable) ORDER BY cp, ent, id, seq) w \
            JOIN generate_series(1, $3::int8) c(cp) ON w.cp = 0 OR w.cp = c.cp), \
            n AS (SELECT s.cp, s.ent, s.id, s.pent, s.pid, \(newID) AS new FROM s, q ORDER BY s.ent, s.cp, s.id) \
            SELECT n.cp, n.ent, n.id, n.new, n.pent, n.pid, p.new FROM n LEFT JOIN n p ON p.cp = n.cp AND p.ent = n.pent AND p.id = n.pid
            """
    }

    // MARK: 3–4. Insert per entity

    private func entityStep(_ entity: EntityDescription) -> EntityStep {
        let entityTag = tag(entity.name)
        let table = quoted(entity.name)
        var columns = ["\"_id\"", "\"_version\""]
        var values = ["m.new", "1"]
        for attribute in entity.attributes {
            columns.append(quoted(attribute.name))
            values.append(attributeExpression(entity, attribute))
        }
        var joins: [String] = []
        var keepsPlaces: [String] = []
        var simpleValues = values
        var appendingValues = values
        for (index, foreignKey) in (schema.foreignKeys[entity.name] ?? []).enumerated() {
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            let alias = "f\(index)"
            joins.append(
                "LEFT JOIN \(map) \(alias) ON \(alias).ent = \(tag(relationship.destination)) AND \(alias).old = o.\(quoted(foreignKey.column)) AND \(alias).cp = m.cp"
            )
            let mapped = "\(alias).new"
            let reference = referenceExpression(entity, relationship, column: foreignKey.column, mapped: mapped)
            columns.append(quoted(foreignKey.column))
            simpleValues.append(reference)
            appendingValues.append(reference)
            if let position = foreignKey.positionColumn {
                columns.append(quoted(position))
                simpleValues.append("CASE WHEN (\(reference)) IS NULL THEN NULL ELSE o.\(quoted(position)) END")
                appendingValues.append(
                    positionExpression(
                        entity, relationship, column: foreignKey.column, position: position,
                        reference: reference, mapped: mapped))
                let rootSet = setting(entity.name, relationship.name).map { " AND NOT \(isSetRoot($0))" } ?? ""
                keepsPlaces.append("((\(reference)) IS NULL OR (\(mapped) IS NOT NULL\(rootSet)))")
            }
        }
        let source = "FROM \(map) m JOIN \(table) o ON o.\"_id\" = m.old " + joins.joined(separator: " ") + " WHERE m.ent = \(entityTag)"
        let into = "INSERT INTO \(table) (\(columns.joined(separator: ", ")))"
        var inserts: [String]
        if keepsPlaces.isEmpty {
            inserts = ["\(into) SELECT \(simpleValues.joined(separator: ", ")) \(source) ORDER BY m.new"]
        } else {
            let condition = keepsPlaces.joined(separator: " AND ")
            inserts = [
                "\(into) SELECT \(simpleValues.joined(separator: ", ")) \(source) AND \(condition) ORDER BY m.new",
                "\(into) SELECT \(appendingValues.joined(separator: ", ")) \(source) AND NOT (\(condition)) ORDER BY m.new",
            ]
        }
        return EntityStep(name: entity.name, tag: entityTag, inserts: inserts)
    }

    /// The first copy (`cp`, 1-based) whose values of `attributes` of `entity` repeat an earlier
    /// copy's or a stored row's — the same values the inserts would write (run after rolling them
    /// back), nulls never clashing; nil when `entity` is not copied or an attribute is unknown.
    func clashingCopyQuery(entity name: String, attributes: [String]) -> String? {
        guard let entity = model.entity(named: name), entitySteps.contains(where: { $0.name == name }) else { return nil }
        let described = attributes.compactMap { entity.attribute(named: $0) }
        guard described.count == attributes.count, !described.isEmpty else { return nil }
        return GraphCopyClashQuery.sql(
            values: described.map { attributeExpression(entity, $0, readsParents: false) }, columns: described.map { quoted($0.name) },
            table: quoted(name), map: map, entityTag: tag(name), copyColumn: "cp", excludingOwnRows: false)
    }

    private func blank(_ attribute: AttributeDescription) -> String {
        guard let value = attribute.defaultValue, !value.isNull else { return "NULL" }
        return PostgreSQLSchema.literal(value.blobKeyed)
    }

    private func ruleExpression(_ rule: AttributeCopyRule, _ attribute: AttributeDescription, original: String) -> String {
        switch rule {
        case .copy: return original
        case .blank: return blank(attribute)
        case .newUUID: return "gen_random_uuid()"
        case .cloneTime: return "$2::timestamptz"
        case .followParent(_, let otherwise): return ruleExpression(otherwise, attribute, original: original)
        }
    }

    /// The attribute rules (docs/architecture.md#attribute-rules), in precedence: exclude, followParent (+ withoutParent),
    /// rebuild, copy; the request's `set` on the root over all of them.
    /// `readsParents`: false for the clash query, run when the inserts were rolled back and no
    /// parent's clone is there to read (the value the copy would have had before the follow step).
    private func attributeExpression(_ entity: EntityDescription, _ attribute: AttributeDescription, readsParents: Bool = true) -> String {
        let original = "o.\(quoted(attribute.name))"
        let rule = plan.rule(for: entity.name, attribute.name)
        var expression: String
        if plan.isExcludedEverywhere(entity.name, attribute.name) {
            expression = blank(attribute)
        } else if case .followParent(let followed, let otherwise) = rule {
            let withoutParent = ruleExpression(otherwise, attribute, original: original)
            let placeholder =
                attribute.isOptional ? "NULL" : (attribute.defaultValue.map { $0.isNull ? "NULL" : PostgreSQLSchema.literal($0.blobKeyed) } ?? original)
            let followable = model.entities.filter { $0.attribute(named: followed) != nil }.map { String(tag($0.name)) }
            let noParent = followable.isEmpty ? "true" : "m.pold IS NULL OR m.pent NOT IN (\(followable.joined(separator: ", ")))"
            var cases = ["WHEN \(noParent) THEN \(withoutParent)"]
            if readsParents, let parents = insertedFollowParents(entity, attribute) {
                // The parents' rows are already written: read the followed value now rather
                // than write the row twice (an UPDATE after the inserts).
                cases += parents.map { parent in
                    "WHEN m.pent = \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                }
            }
            expression = "CASE \(cases.joined(separator: " ")) ELSE \(placeholder) END"
        } else {
            expression = ruleExpression(rule, attribute, original: original)
        }
        if excludedAtRoot(entity.name, attribute.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(blank(attribute)) ELSE \(expression) END"
        }
        let type = PostgreSQLGraphCopySQL.castType(attribute.type)
        if let setting = setting(entity.name, attribute.name) {
            // The rule's expression typed before it meets the set value: a followParent with no
            // parent in reach is all NULL branches, which PostgreSQL reads as text, and a CASE of
            // text and the set value's uuid (or int8, ...) cannot be matched.
            expression = "CASE WHEN \(isSetRoot(setting)) THEN \(setValue(setting)) ELSE CAST(\(expression) AS \(type)) END"
        }
        // Typed, so a CASE whose every branch is NULL is still the column's type.
        return "CAST(\(expression) AS \(type))"
    }

    /// The entities whose clones a `followParent` attribute of `entity` takes its value from,
    /// the owners through a followed relationship that have the followed attribute.
    private func followParents(of entity: String, followed: String) -> [String] {
        model.entities.filter { candidate in
            reachable.contains(candidate.name) && candidate.attribute(named: followed) != nil
                && candidate.relationships.contains { $0.destination == entity && isFollowed($0) }
        }.map(\.name)
    }

    /// The parents of a `followParent` attribute when its value can be read while its rows are
    /// inserted: every parent entity is inserted in an earlier step (entities go in model order)
    /// with the followed attribute final by then (not following a parent itself) and of the same
    /// type. Otherwise nil, and an UPDATE after all inserts sets it (`followSteps`).
    private func insertedFollowParents(_ entity: EntityDescription, _ attribute: AttributeDescription) -> [String]? {
        guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
            !plan.isExcludedEverywhere(entity.name, attribute.name)
        else { return nil }
        let parents = followParents(of: entity.name, followed: followed)
        guard !parents.isEmpty else { return nil }
        for parent in parents {
            guard tag(parent) < tag(entity.name), model.entity(named: parent)!.attribute(named: followed)!.type == attribute.type else { return nil }
            if case .followParent = plan.rule(for: parent, followed) { return nil }
        }
        return parents
    }

    private static func castType(_ type: AttributeType) -> String {
        switch type {
        case .string, .json: return "text"
        case .integer: return "int8"
        case .double: return "float8"
        case .boolean: return "boolean"
        case .date: return "timestamptz"
        case .uuid: return "uuid"
        case .binary: return "bytea"
        }
    }

    /// A reference into the copy's clone set points at the clone (rule 4); outside it, a shared
    /// relationship keeps linking the original, an owned one has nothing to point at.
    private func referenceExpression(_ entity: EntityDescription, _ relationship: RelationshipDescription, column: String, mapped: String) -> String {
        let original = "o.\(quoted(column))"
        var excludedValue = "NULL::int8"
        if let inverse = model.inverse(of: relationship), !plan.isExcludedEverywhere(inverse.source, inverse.name) {
            excludedValue = mapped
        }
        var expression = plan.isOwned(relationship) ? mapped : "coalesce(\(mapped), \(original))"
        if plan.isExcludedEverywhere(entity.name, relationship.name) { expression = excludedValue }
        if excludedAtRoot(entity.name, relationship.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(excludedValue) ELSE \(expression) END"
        }
        if let setting = setting(entity.name, relationship.name) {
            expression = "CASE WHEN \(isSetRoot(setting)) THEN \(setValue(setting)) ELSE \(expression) END"
        }
        return expression
    }

    /// Position in the destination's ordered list: a clone under a cloned owner keeps its place;
    /// a clone joining an original owner goes to the end (rule 7), copy after copy, each in
    /// original order.
    private func positionExpression(
        _ entity: EntityDescription, _ relationship: RelationshipDescription, column: String,
        position: String, reference: String, mapped: String
    ) -> String {
        let table = quoted(entity.name)
        let original = "o.\(quoted(column))"
        let positionColumn = quoted(position)
        var cases = ["WHEN (\(reference)) IS NULL THEN NULL"]
        if let setting = setting(entity.name, relationship.name) {
            let owner = setValue(setting)
            cases.append(
                """
                WHEN \(isSetRoot(setting)) THEN coalesce((SELECT max(e.\(positionColumn)) FROM \(table) e WHERE e.\(quoted(column)) = \(owner)), -1) \
                + row_number() OVER (PARTITION BY CASE WHEN \(isSetRoot(setting)) THEN \(owner) END ORDER BY m.cp)
                """)
        }
        cases.append("WHEN \(mapped) IS NOT NULL THEN o.\(positionColumn)")
        cases.append(
            "ELSE coalesce((SELECT max(e.\(positionColumn)) FROM \(table) e WHERE e.\(quoted(column)) = \(original)), -1) + row_number() OVER (PARTITION BY \(original) ORDER BY m.cp, o.\(positionColumn), o.\"_id\")"
        )
        return "CASE " + cases.joined(separator: " ") + " END"
    }

    // MARK: 3. Linked shared objects

    /// Every source of shared objects in one statement (one round trip however many foreign keys
    /// and join tables point outside the clone). Rows are grouped by object first, keeping the
    /// strongest bump: PostgreSQL refuses an ON CONFLICT DO UPDATE that would touch one row twice
    /// in a statement.
    private static func linkedInsert(_ selects: [String]) -> [String] {
        guard !selects.isEmpty else { return [] }
        return [
            "INSERT INTO \(PostgreSQLGraphCopySQL.linkedTable) AS l (ent, id, bump) SELECT ent, id, max(bump) FROM ("
                + selects.joined(separator: " UNION ALL ") + ") s(ent, id, bump) GROUP BY ent, id "
                + "ON CONFLICT (ent, id) DO UPDATE SET bump = GREATEST(l.bump, EXCLUDED.bump)"
        ]
    }

    /// The condition that the map row `alias` is not a root whose relationship `name` is left out
    /// (excluded at the root, or replaced by `set`).
    private func notReplacedAtRoot(_ entity: String, _ name: String, alias: String) -> String? {
        if excludedAtRoot(entity, name) { return "\(alias).pold IS NOT NULL" }
        if let setting = setting(entity, name) { return "NOT \(isSetRoot(setting, alias: alias))" }
        return nil
    }

    private func entityLinkedQueries(_ entity: EntityDescription) -> [(tag: Int, ordered: Bool, sql: String)] {
        (schema.foreignKeys[entity.name] ?? []).compactMap { foreignKey in
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            guard !plan.isOwned(relationship), !plan.isExcludedEverywhere(entity.name, relationship.name) else { return nil }
            let column = "o.\(quoted(foreignKey.column))"
            var conditions = [
                "m.ent = \(tag(entity.name))", "\(column) IS NOT NULL",
                "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(relationship.destination)) AND x.old = \(column) AND x.cp = m.cp)",
            ]
            if let condition = notReplacedAtRoot(entity.name, relationship.name, alias: "m") { conditions.append(condition) }
            return (
                tag(relationship.destination), model.inverse(of: relationship)?.isOrdered ?? false,
                """
                SELECT \(tag(relationship.destination)), \(column), \(relationship.hasInverse ? 1 : 0) \
                FROM \(map) m JOIN \(quoted(entity.name)) o ON o."_id" = m.old WHERE \(conditions.joined(separator: " AND "))
                """
            )
        }
    }

    private func sides(of joinTable: JoinTableDescription) -> (source: RelationshipDescription, inverse: RelationshipDescription?) {
        for relationship in model.entity(named: joinTable.sourceEntity)!.relationships {
            if case .joinTable(joinTable.name, "src", _, _) = schema.storage(of: relationship) {
                return (relationship, model.inverse(of: relationship))
            }
        }
        preconditionFailure("join table \(joinTable.name) has no source relationship")
    }

    private func joinLinkedQueries(_ joinTable: JoinTableDescription, reachable: Set<String>) -> [(tag: Int, ordered: Bool, sql: String)] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        var queries: [(tag: Int, ordered: Bool, sql: String)] = []
        if reachable.contains(joinTable.sourceEntity), !plan.isOwned(source), !plan.isExcludedEverywhere(source.source, source.name) {
            var conditions = [
                "m.ent = \(tag(joinTable.sourceEntity))",
                "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(joinTable.destinationEntity)) AND x.old = j.\"dst\" AND x.cp = m.cp)",
            ]
            if excludedAtRoot(source.source, source.name) { conditions.append("m.pold IS NOT NULL") }
            queries.append(
                (
                    tag(joinTable.destinationEntity), inverse?.isOrdered ?? false,
                    """
                    SELECT \(tag(joinTable.destinationEntity)), j."dst", \(inverse == nil ? 0 : 1) FROM \(map) m JOIN \(table) j ON j."src" = m.old \
                    WHERE \(conditions.joined(separator: " AND "))
                    """
                ))
        }
        if let inverse, reachable.contains(joinTable.destinationEntity), !plan.isOwned(inverse),
            !plan.isExcludedEverywhere(inverse.source, inverse.name)
        {
            var conditions = [
                "m.ent = \(tag(joinTable.destinationEntity))",
                "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(joinTable.sourceEntity)) AND x.old = j.\"src\" AND x.cp = m.cp)",
            ]
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("m.pold IS NOT NULL") }
            queries.append(
                (
                    tag(joinTable.sourceEntity), source.isOrdered,
                    """
                    SELECT \(tag(joinTable.sourceEntity)), j."src", 1 FROM \(map) m JOIN \(table) j ON j."dst" = m.old \
                    WHERE \(conditions.joined(separator: " AND "))
                    """
                ))
        }
        return queries
    }

    // MARK: 5. Join tables

    private func joinTableInserts(_ joinTable: JoinTableDescription, reachable: Set<String>) -> [String] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        let sourceTag = tag(joinTable.sourceEntity)
        let destinationTag = tag(joinTable.destinationEntity)
        var statements: [String] = []

        if reachable.contains(joinTable.sourceEntity) {
            var columns = ["\"src\"", "\"dst\""]
            var values = ["ms.new", plan.isOwned(source) ? "md.new" : "coalesce(md.new, j.\"dst\")"]
            if let position = joinTable.sourcePositionColumn { columns.append(quoted(position)); values.append("j.\(quoted(position))") }
            if let position = joinTable.destinationPositionColumn {
                let column = quoted(position)
                columns.append(column)
                values.append(
                    "CASE WHEN md.new IS NOT NULL THEN j.\(column) ELSE coalesce((SELECT max(e.\(column)) FROM \(table) e WHERE e.\"dst\" = j.\"dst\"), -1) + row_number() OVER (PARTITION BY j.\"dst\" ORDER BY ms.new) END"
                )
            }
            let sourceKept =
                plan.isExcludedEverywhere(source.source, source.name)
                ? "false"
                : (excludedAtRoot(source.source, source.name) ? "ms.pold IS NOT NULL" : "true")
            var inverseKept = "false"
            if let inverse, !plan.isExcludedEverywhere(inverse.source, inverse.name) {
                inverseKept = "md.new IS NOT NULL" + (excludedAtRoot(inverse.source, inverse.name) ? " AND md.pold IS NOT NULL" : "")
            }
            let condition =
                "ms.ent = \(sourceTag) AND (((\(sourceKept)) AND (md.new IS NOT NULL OR \(plan.isOwned(source) ? "false" : "true"))) OR (\(inverseKept)))"
            statements.append(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(map) ms JOIN \(table) j ON j."src" = ms.old LEFT JOIN \(map) md ON md.ent = \(destinationTag) AND md.old = j."dst" AND md.cp = ms.cp \
                WHERE \(condition)
                """)
        }

        if let inverse, reachable.contains(joinTable.destinationEntity), !plan.isOwned(inverse),
            !plan.isExcludedEverywhere(inverse.source, inverse.name)
        {
            var columns = ["\"src\"", "\"dst\""]
            var values = ["j.\"src\"", "md.new"]
            if let position = joinTable.sourcePositionColumn {
                let column = quoted(position)
                columns.append(column)
                values.append(
                    "coalesce((SELECT max(e.\(column)) FROM \(table) e WHERE e.\"src\" = j.\"src\"), -1) + row_number() OVER (PARTITION BY j.\"src\" ORDER BY md.new)"
                )
            }
            if let position = joinTable.destinationPositionColumn { columns.append(quoted(position)); values.append("j.\(quoted(position))") }
            var conditions = [
                "md.ent = \(destinationTag)",
                "NOT EXISTS (SELECT 1 FROM \(map) ms WHERE ms.ent = \(sourceTag) AND ms.old = j.\"src\" AND ms.cp = md.cp)",
            ]
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("md.pold IS NOT NULL") }
            statements.append(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(map) md JOIN \(table) j ON j."dst" = md.old WHERE \(conditions.joined(separator: " AND "))
                """)
        }
        return statements
    }

    // MARK: 6. followParent

    private func followSteps(reachable: Set<String>) -> [FollowStep] {
        struct Key: Hashable { let entity: String; let attribute: String }
        var steps: [Key: (step: FollowStep, dependsOn: [Key])] = [:]
        for entity in model.entities where reachable.contains(entity.name) {
            for attribute in entity.attributes {
                guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
                    !plan.isExcludedEverywhere(entity.name, attribute.name),
                    insertedFollowParents(entity, attribute) == nil
                else { continue }
                let parents = followParents(of: entity.name, followed: followed)
                guard !parents.isEmpty else { continue }
                let cases = parents.map { parent in
                    "WHEN \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                }.joined(separator: " ")
                let entityTag = tag(entity.name)
                let table = quoted(entity.name)
                let column = quoted(attribute.name)
                let dependsOn = parents.compactMap { parent -> Key? in
                    guard case .followParent = plan.rule(for: parent, followed) else { return nil }
                    return Key(entity: parent, attribute: followed)
                }
                var statements = [
                    """
                    UPDATE \(table) t SET \(column) = CASE m.pent \(cases) ELSE t.\(column) END \
                    FROM \(map) m WHERE m.ent = \(entityTag) AND m.pnew IS NOT NULL AND t."_id" = m.new
                    """
                ]
                if dependsOn.contains(Key(entity: entity.name, attribute: attribute.name)) {
                    // A self-following attribute (a tree carrying its root's id): one recursive
                    // query pushes each chain top's value down every level of the clone.
                    statements.append(
                        """
                        WITH RECURSIVE chain(new, value, top) AS (\
                        SELECT m.new, e.\(column), true FROM \(map) m JOIN \(table) e ON e."_id" = m.new \
                        WHERE m.ent = \(entityTag) AND (m.pnew IS NULL OR m.pent <> \(entityTag)) \
                        UNION ALL SELECT c.new, chain.value, false FROM chain JOIN \(map) c ON c.ent = \(entityTag) AND c.pent = \(entityTag) AND c.pnew = chain.new\
                        ) UPDATE \(table) t SET \(column) = chain.value FROM chain WHERE NOT chain.top AND t."_id" = chain.new
                        """)
                }
                steps[Key(entity: entity.name, attribute: attribute.name)] = (
                    FollowStep(entity: entity.name, attribute: attribute.name, statements: statements), dependsOn
                )
            }
        }
        var ordered: [FollowStep] = []
        var done: Set<Key> = []
        var visiting: Set<Key> = []
        func visit(_ key: Key) {
            guard !done.contains(key), !visiting.contains(key), let entry = steps[key] else { return }
            visiting.insert(key)
            for dependency in entry.dependsOn where dependency != key { visit(dependency) }
            visiting.remove(key)
            done.insert(key)
            ordered.append(entry.step)
        }
        for key in steps.keys.sorted(by: { ($0.entity, $0.attribute) < ($1.entity, $1.attribute) }) { visit(key) }
        return ordered
    }
}
