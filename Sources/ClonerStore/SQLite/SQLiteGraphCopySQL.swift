import ClonerModel

/// The SQL of one graph copy on SQLite, derived from the schema and a `GraphCopyPlan` — and from
/// nothing else: no object has been read yet. Its size grows with the number of entities and
/// relationships in the model, never with the number of objects, which is what keeps a clone of
/// a million rows a few dozen statements.
///
/// The statements, run in this order by `SQLiteGraphCopier`:
/// 1. `walk`: one recursive query that finds every object the root owns, through owned
///    relationships, skipping the exact inverse edge of arrival; `UNION` ends cycles.
/// 2. per entity, `mapFill`: old → new `_id` (new ids continue the table's sequence, in old-id
///    order) and each object's parent — its first arrival in breadth-first order.
/// 3. `linkedQueries`: the shared objects the copy links to (also what a dry run reports).
/// 4. per entity, `inserts`: one INSERT … SELECT copying rows inside SQLite (blobs never reach
///    Swift), applying the attribute rules and re-pointing references into the clone set.
/// 5. `joinInserts`: links of join tables, re-pointed or shared.
/// 6. `follows`: `followParent` attributes, from the parent's clone, once every row exists.
///
/// Row aliases used throughout: `m` is the object's map row (`old`, `copy`, `new`, `pent`, `pold`,
/// `pnew`), `o` the original row. The root is the only object without a parent, so
/// `m.pold IS NULL` is how a statement tells the root apart.
///
/// Many copies (docs/architecture.md#many-copies) multiply the walk's rows inside SQL: the map fill joins the walk
/// with the copies table (one row per copy number, 0-based), so the map holds one row per object
/// per copy, and every join on the map matches copy numbers — one identity map per copy, the same
/// statements for 1 copy or 1,000. The root's `set` values, per copy, sit in the root values
/// table keyed by (copy, name).
struct SQLiteGraphCopySQL {
    struct EntityStep {
        let name: String
        let tag: Int
        /// Needs `:count` (the entity's objects in one copy); numbers new ids after the highest the
        /// table has used, read in the same statement.
        let mapFill: String
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

    struct FollowStep {
        let entity: String
        let attribute: String
        let update: String
        /// For an attribute that follows itself (a tree carrying its root's id): statements that
        /// push the value from each chain's top down all levels, run after `update`.
        let propagation: [String]
    }

    static let walkTable = "temp.\"_clone_walk\""
    static let mapTable = "temp.\"_clone_map\""
    static let linkedTable = "temp.\"_clone_linked\""
    static let chainTable = "temp.\"_clone_chain\""
    static let copiesTable = "temp.\"_clone_copies\""
    static let rootValuesTable = "temp.\"_clone_set\""
    static let treeTable = "temp.\"_clone_tree\""

    static func stagingTable(_ entity: String) -> String { "temp.\"_clone_src_\(entity.replacingOccurrences(of: "\"", with: "\"\""))\"" }

    /// SQL for a random (version 4) UUID in canonical lower-case text, evaluated per row inside
    /// SQLite so rebuilt ids cost no round trip to Swift.
    static let uuidExpression = """
        (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' \
        || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
        """

    let schema: StoreSchema
    let root: EntityDescription
    let plan: GraphCopyPlan
    let rootTag: Int
    /// The walk, stopped after `:walkLimit` rows (a parameter: the SQL is shared by plans of any
    /// limit and number of copies): past the object limit it need not go on to tell the clone is
    /// too large. An object reached by several edges is a row per edge, so a walk stopped with no
    /// more objects than the limit is redone without the stop (`walkWithoutLimit`).
    private(set) var walk: String
    private(set) var walkWithoutLimit: String
    private(set) var entitySteps: [EntityStep]
    private(set) var linkedQueries: [String]
    private(set) var joinInserts: [String]
    private(set) var follows: [FollowStep]
    /// `followParent` attributes written by the INSERT itself: every possible parent's entity is
    /// inserted earlier with its followed value final by then (qualified names).
    private var inlineFollows: Set<String> = []
    /// Entities in the order they are mapped and inserted.
    private var stepOrder: [String: Int] = [:]
    /// Root properties not walked or carried for the root: its exclusions, and the to-manys
    /// `rootLinks` replaces (rule 8).
    private let rootExclusions: Set<String>
    /// Root properties some copy sets: the request's `set` and every per-copy `set`.
    private let rootSetNames: Set<String>
    private let relationshipIndex: [String: Int]

    init(plan: GraphCopyPlan, schema: StoreSchema) {
        guard let root = schema.model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        self.schema = schema
        self.root = root
        self.plan = plan
        self.rootTag = schema.entityTag(root.name)
        self.rootExclusions = plan.excludedAtRoot.union(plan.rootLinks.keys)
        self.rootSetNames = Set(plan.rootValues.keys).union(plan.perCopyRootValues.flatMap(\.keys))
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
        let entities = schema.model.entities.filter { reachable.contains($0.name) }
        for (index, entity) in entities.enumerated() { stepOrder[entity.name] = index }
        self.inlineFollows = inlinableFollows(entities: entities)
        self.walk = walkSQL(limit: ":walkLimit")
        self.walkWithoutLimit = walkSQL(limit: nil)
        self.entitySteps = entities.map(entityStep)
        let linkedSelects = entities.flatMap(entityLinkedQueries) + schema.joinTables.flatMap { joinLinkedQueries($0, reachable: reachable) }
        self.linkedQueries = linkedSelects.isEmpty ? [] : [SQLiteGraphCopySQL.linkedInsert(linkedSelects)]
        self.joinInserts = schema.joinTables.flatMap { joinTableInserts($0, reachable: reachable) }
        self.follows = followSteps(reachable: reachable)
    }

    private var model: DataModel { schema.model }
    private var map: String { SQLiteGraphCopySQL.mapTable }

    private func tag(_ entity: String) -> Int { schema.entityTag(entity) }

    private func isRootEntity(_ entity: String) -> Bool { entity == root.name }

    /// Owned relationships not excluded for a whole entity: the edges a walk may take.
    private func isFollowed(_ relationship: RelationshipDescription) -> Bool {
        plan.isOwned(relationship) && !plan.isExcludedEverywhere(relationship.source, relationship.name)
    }

    private func excludedAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && rootExclusions.contains(property)
    }

    private func setAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && rootSetNames.contains(property)
    }

    /// The value a copy's root is set to, when its copy sets `property`; `otherwise` when not
    /// (a per-copy `set` may name an attribute that other copies leave to the rules).
    private func rootValue(_ property: String, otherwise: String) -> String {
        let table = SQLiteGraphCopySQL.rootValuesTable
        let name = "'" + property.replacingOccurrences(of: "'", with: "''") + "'"
        return "CASE WHEN m.pold IS NULL AND EXISTS (SELECT 1 FROM \(table) s WHERE s.copy = m.copy AND s.name = \(name)) "
            + "THEN (SELECT s.value FROM \(table) s WHERE s.copy = m.copy AND s.name = \(name)) ELSE \(otherwise) END"
    }

    /// The value of a root's to-one set in its copy (only used where every copy sets it).
    private func rootReference(_ property: String) -> String {
        let name = "'" + property.replacingOccurrences(of: "'", with: "''") + "'"
        return "(SELECT s.value FROM \(SQLiteGraphCopySQL.rootValuesTable) s WHERE s.copy = m.copy AND s.name = \(name))"
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

    /// `limit`: rows the recursion adds before it stops (SQLite applies a recursive select's
    /// LIMIT to the rows it queues, so the walk ends there rather than after every object).
    private func walkSQL(limit: String?) -> String {
        var parts = ["SELECT :rootTag, :root, -1, NULL, NULL"]
        for entity in model.entities {
            for relationship in entity.relationships where isFollowed(relationship) {
                let join = schema.join(for: relationship)
                var conditions = ["w.ent = \(tag(entity.name))", join.nonNullCondition(alias: "t")]
                if relationship.isSelfInverse {
                    // Rule 2 for a relationship that is its own inverse (`Person.friends`): only the
                    // edge back to the object of arrival is skipped, so the rest of its list is
                    // still walked.
                    conditions.append("(w.via <> \(relationshipIndex[relationship.qualifiedName]!) OR t.\(quoted(join.destinationColumn)) <> w.pid)")
                } else if let inverse = model.inverse(of: relationship), let inverseIndex = relationshipIndex[inverse.qualifiedName] {
                    // Rule 2: not back through the exact edge of arrival.
                    conditions.append("w.via <> \(inverseIndex)")
                }
                // Rule 8: a relationship the request sets on the root replaces what the walk would
                // give it, so its branch is not walked from the root (objects reachable another
                // way still are).
                if excludedAtRoot(entity.name, relationship.name) || setAtRoot(entity.name, relationship.name) {
                    conditions.append("w.via <> -1")
                }
                parts.append(
                    """
                    SELECT \(tag(relationship.destination)), t.\(quoted(join.destinationColumn)), \(relationshipIndex[relationship.qualifiedName]!), w.ent, w.id \
                    FROM w JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = w.id WHERE \(conditions.joined(separator: " AND "))
                    """)
            }
        }
        return "INSERT INTO \(SQLiteGraphCopySQL.walkTable) (ent, id, via, pent, pid) WITH RECURSIVE w(ent, id, via, pent, pid) AS (\n"
            + parts.joined(separator: "\nUNION\n") + (limit.map { "\nLIMIT \($0)" } ?? "") + "\n) SELECT ent, id, via, pent, pid FROM w"
    }

    // MARK: 2–4. Map and insert per entity

    private func entityStep(_ entity: EntityDescription) -> EntityStep {
        let entityTag = tag(entity.name)
        let table = quoted(entity.name)
        // One map row per object per copy; copy k's new ids follow copy k-1's, in old-id order:
        // new = base + copy × count + rank of the old id, so the objects are numbered once (not
        // once per copy) and the rows arrive in the map's key order (ent, copy, old) — appended,
        // never sorted. The parent's clone is looked up here when its entity's rows are already
        // mapped (`parentUpdate` fills the rest afterwards).
        // The highest `_id` the table has used (AUTOINCREMENT never reuses one), once per statement.
        let nextIDQuery = """
            SELECT max(coalesce((SELECT max("_id") FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = '\(entity.name)'), 0))
            """
        let mapFill = """
            INSERT INTO \(map) (ent, old, copy, new, pent, pold, pnew) \
            SELECT w.ent, w.id, c.copy, (\(nextIDQuery)) + c.copy * :count + w.r, w.pent, w.pid, p.new \
            FROM \(SQLiteGraphCopySQL.copiesTable) c CROSS JOIN (SELECT ent, id, pent, pid, row_number() OVER (ORDER BY id) AS r FROM \
            (SELECT ent, id, pent, pid, min(seq) FROM \(SQLiteGraphCopySQL.walkTable) WHERE ent = \(entityTag) GROUP BY id)) w \
            LEFT JOIN \(map) p ON p.ent = w.pent AND p.old = w.pid AND p.copy = c.copy
            """
        let laterParent = model.entities.contains { candidate in
            (stepOrder[candidate.name].map { $0 >= stepOrder[entity.name]! } ?? false)
                && candidate.relationships.contains { $0.destination == entity.name && isFollowed($0) }
        }
        let parentUpdate =
            laterParent
            ? """
            UPDATE \(map) SET pnew = (SELECT p.new FROM \(map) p WHERE p.ent = \(map).pent AND p.old = \(map).pold AND p.copy = \(map).copy) \
            WHERE ent = \(entityTag) AND pold IS NOT NULL AND pnew IS NULL
            """ : nil
        let staging = plan.copies > 1 ? stagingStatements(entity) : nil
        var columns = ["\"_id\"", "\"_version\""]
        var values = ["m.new", "1"]
        for attribute in entity.attributes {
            columns.append(quoted(attribute.name))
            values.append(attributeExpression(entity, attribute))
        }
        // One LEFT JOIN on the map per reference column: its clone, if the destination is in the
        // clone set, looked up once per row however many expressions use it.
        var joins: [String] = []
        // Rows whose every ordered reference keeps its place (a cloned owner, or none) need no
        // window function; only rows joining an original owner's list are numbered (rule 7), in a
        // second INSERT, so the common case is not sorted for a row_number it never uses.
        var keepsPlaces: [String] = []
        var simpleValues = values
        var appendingValues = values
        for (index, foreignKey) in (schema.foreignKeys[entity.name] ?? []).enumerated() {
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            let alias = "f\(index)"
            joins.append(
                "LEFT JOIN \(map) \(alias) ON \(alias).ent = \(tag(relationship.destination)) AND \(alias).old = o.\(quoted(foreignKey.column)) AND \(alias).copy = m.copy"
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
                let rootSet = setAtRoot(entity.name, relationship.name) ? " AND m.pold IS NOT NULL" : ""
                keepsPlaces.append("((\(reference)) IS NULL OR (\(mapped) IS NOT NULL\(rootSet)))")
            }
        }
        let source =
            "FROM \(map) m JOIN \(staging == nil ? table : SQLiteGraphCopySQL.stagingTable(entity.name)) o ON o.\"_id\" = m.old " + joins.joined(separator: " ")
            + " WHERE m.ent = \(entityTag)"
        let into = "INSERT INTO \(table) (\(columns.joined(separator: ", ")))"
        // New-id order (rows appended to the table's b-tree), which is the map's key order: no
        // sort, and no blob pushed through a sorter.
        let order = "ORDER BY m.copy, m.old"
        var inserts: [String]
        if keepsPlaces.isEmpty {
            inserts = ["\(into) SELECT \(simpleValues.joined(separator: ", ")) \(source) \(order)"]
        } else {
            let condition = keepsPlaces.joined(separator: " AND ")
            inserts = [
                "\(into) SELECT \(simpleValues.joined(separator: ", ")) \(source) AND \(condition) \(order)",
                "\(into) SELECT \(appendingValues.joined(separator: ", ")) \(source) AND NOT (\(condition)) \(order)",
            ]
        }
        return SQLiteGraphCopySQL.EntityStep(
            name: entity.name, tag: entityTag, mapFill: mapFill, parentUpdate: parentUpdate,
            inserts: inserts, staging: staging)
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
                WHERE "_id" IN (SELECT old FROM \(map) WHERE ent = \(tag(entity.name)) AND copy = 0)
                """,
            clear: "DELETE FROM \(staging)")
    }

    /// After a unique violation on `entity`'s `attributes`: the first copy whose rows repeat a
    /// value, of the entity's existing rows (those this copy did not write) or of an earlier
    /// row — lower copies first — of the same copy. Nil when the entity is not copied.
    func clashingCopyQuery(entity name: String, attributes: [String]) -> String? {
        guard let entity = model.entity(named: name), entitySteps.contains(where: { $0.name == name }) else { return nil }
        let described = attributes.compactMap { entity.attribute(named: $0) }
        guard described.count == attributes.count, !described.isEmpty else { return nil }
        return GraphCopyClashQuery.sql(
            values: described.map { attributeExpression(entity, $0) }, columns: described.map { quoted($0.name) },
            table: quoted(name), map: map, entityTag: tag(name), copyColumn: "copy", excludingOwnRows: true)
    }

    /// A binary default is written as its blob's key (the blob is kept while the model names it).
    private func blank(_ attribute: AttributeDescription) -> String {
        attribute.defaultValue.map { $0.blobKeyed.sqlLiteral } ?? "NULL"
    }

    /// The value a rule gives a copied row (`followParent` here means its fallback: the follow
    /// step writes the parent's value afterwards).
    private func ruleExpression(_ rule: AttributeCopyRule, _ attribute: AttributeDescription, original: String) -> String {
        switch rule {
        case .copy: return original
        case .blank: return blank(attribute)
        case .newUUID: return SQLiteGraphCopySQL.uuidExpression
        case .cloneTime: return ":now"
        case .followParent(_, let otherwise): return ruleExpression(otherwise, attribute, original: original)
        }
    }

    /// The attribute rules (docs/architecture.md#attribute-rules), in precedence: exclude, followParent (+ withoutParent),
    /// rebuild, copy; the request's `set` on the root over all of them.
    private func attributeExpression(_ entity: EntityDescription, _ attribute: AttributeDescription) -> String {
        let original = "o.\(quoted(attribute.name))"
        let rule = plan.rule(for: entity.name, attribute.name)
        var expression: String
        if plan.isExcludedEverywhere(entity.name, attribute.name) {
            expression = blank(attribute)
        } else if case .followParent(let followed, let otherwise) = rule {
            // With a parent, the follow step fills the value once the parent's clone exists; until
            // then the row holds a placeholder that satisfies the column.
            let withoutParent = ruleExpression(otherwise, attribute, original: original)
            var placeholder = attribute.isOptional ? "NULL" : (attribute.defaultValue.map { $0.blobKeyed.sqlLiteral } ?? original)
            if inlineFollows.contains("\(entity.name).\(attribute.name)") {
                // The parent's row is written already, its value final: read it here.
                placeholder =
                    "CASE m.pent "
                    + followParents(of: entity, followed: followed).map { parent in
                        "WHEN \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                    }.joined(separator: " ") + " ELSE \(placeholder) END"
            }
            // A parent whose entity lacks the followed attribute counts as no parent (docs/architecture.md#clone-semantics).
            let followable = model.entities.filter { $0.attribute(named: followed) != nil }.map { String(tag($0.name)) }
            let noParent = followable.isEmpty ? "1" : "m.pold IS NULL OR m.pent NOT IN (\(followable.joined(separator: ", ")))"
            expression = "CASE WHEN \(noParent) THEN \(withoutParent) ELSE \(placeholder) END"
        } else {
            expression = ruleExpression(rule, attribute, original: original)
        }
        if excludedAtRoot(entity.name, attribute.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(blank(attribute)) ELSE \(expression) END"
        }
        if setAtRoot(entity.name, attribute.name) {
            expression = rootValue(attribute.name, otherwise: expression)
        }
        return expression
    }

    /// A reference into the clone set points at the clone (rule 4); outside it, a shared
    /// relationship keeps linking the original, an owned one has nothing to point at.
    private func referenceExpression(_ entity: EntityDescription, _ relationship: RelationshipDescription, column: String, mapped: String) -> String {
        let original = "o.\(quoted(column))"
        // An excluded side still links to a clone whose own (inverse) side is not excluded: in
        // Core Data that clone would set the inverse, which sets this side too.
        var excludedValue = "NULL"
        if let inverse = model.inverse(of: relationship), !plan.isExcludedEverywhere(inverse.source, inverse.name) {
            excludedValue = mapped
        }
        var expression = plan.isOwned(relationship) ? mapped : "coalesce(\(mapped), \(original))"
        if plan.isExcludedEverywhere(entity.name, relationship.name) { expression = excludedValue }
        if excludedAtRoot(entity.name, relationship.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(excludedValue) ELSE \(expression) END"
        }
        if setAtRoot(entity.name, relationship.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(rootReference(relationship.name)) ELSE \(expression) END"
        }
        return expression
    }

    /// Position in the destination's ordered list: a clone under a cloned owner keeps its place;
    /// a clone joining an original owner goes to the end (rule 7), in original order.
    private func positionExpression(
        _ entity: EntityDescription, _ relationship: RelationshipDescription, column: String,
        position: String, reference: String, mapped: String
    ) -> String {
        let table = quoted(entity.name)
        let original = "o.\(quoted(column))"
        let positionColumn = quoted(position)
        var cases = ["WHEN (\(reference)) IS NULL THEN NULL"]
        if setAtRoot(entity.name, relationship.name) {
            // Every copy's root joins the end of the list it is set to, in copy order.
            let target = rootReference(relationship.name)
            cases.append(
                "WHEN m.pold IS NULL THEN coalesce((SELECT max(e.\(positionColumn)) FROM \(table) e WHERE e.\(quoted(column)) = \(target)), -1) + row_number() OVER (PARTITION BY m.pold IS NULL, \(target) ORDER BY m.copy)"
            )
        }
        cases.append("WHEN \(mapped) IS NOT NULL THEN o.\(positionColumn)")
        cases.append(
            "ELSE coalesce((SELECT max(e.\(positionColumn)) FROM \(table) e WHERE e.\(quoted(column)) = \(original)), -1) + row_number() OVER (PARTITION BY \(original) ORDER BY m.copy, o.\(positionColumn), o.\"_id\")"
        )
        return "CASE " + cases.joined(separator: " ") + " END"
    }

    // MARK: 3. Linked shared objects

    /// One INSERT for every kind of link: a statement each would cost more than most of them
    /// find. `WHERE true` tells SQLite's parser the upsert clause is not a join's ON.
    private static func linkedInsert(_ selects: [String]) -> String {
        "INSERT INTO \(SQLiteGraphCopySQL.linkedTable) (ent, id, bump) SELECT ent, id, bump FROM (\(selects.joined(separator: " UNION ALL "))) WHERE true "
            + "ON CONFLICT (ent, id) DO UPDATE SET bump = max(bump, excluded.bump)"
    }

    private func entityLinkedQueries(_ entity: EntityDescription) -> [String] {
        (schema.foreignKeys[entity.name] ?? []).compactMap { foreignKey in
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            guard !plan.isOwned(relationship), !plan.isExcludedEverywhere(entity.name, relationship.name) else { return nil }
            let column = "o.\(quoted(foreignKey.column))"
            // Every copy links what copy 0 links (the walk is the same for all), so copy 0's rows say it.
            var conditions = [
                "m.ent = \(tag(entity.name))", "m.copy = 0", "\(column) IS NOT NULL",
                "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(relationship.destination)) AND x.old = \(column) AND x.copy = 0)",
            ]
            if excludedAtRoot(entity.name, relationship.name) || setAtRoot(entity.name, relationship.name) {
                conditions.append("m.pold IS NOT NULL")
            }
            return
                ("""
            SELECT \(tag(relationship.destination)) AS ent, \(column) AS id, \(relationship.hasInverse ? 1 : 0) AS bump \
            FROM \(map) m JOIN \(quoted(entity.name)) o ON o."_id" = m.old WHERE \(conditions.joined(separator: " AND "))
            """)
        }
    }

    /// The relationship stored in a join table as its `src` side, and its inverse if any.
    private func sides(of joinTable: JoinTableDescription) -> (source: RelationshipDescription, inverse: RelationshipDescription?) {
        for relationship in model.entity(named: joinTable.sourceEntity)!.relationships {
            if case .joinTable(joinTable.name, "src", _, _) = schema.storage(of: relationship) {
                return (relationship, model.inverse(of: relationship))
            }
        }
        preconditionFailure("join table \(joinTable.name) has no source relationship")
    }

    private func joinLinkedQueries(_ joinTable: JoinTableDescription, reachable: Set<String>) -> [String] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        var queries: [String] = []
        if reachable.contains(joinTable.sourceEntity), !plan.isOwned(source), !plan.isExcludedEverywhere(source.source, source.name) {
            var conditions = [
                "m.ent = \(tag(joinTable.sourceEntity))", "m.copy = 0",
                "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(joinTable.destinationEntity)) AND x.old = j.dst AND x.copy = 0)",
            ]
            if excludedAtRoot(source.source, source.name) { conditions.append("m.pold IS NOT NULL") }
            queries.append(
                ("""
                SELECT \(tag(joinTable.destinationEntity)) AS ent, j.dst AS id, \(inverse == nil ? 0 : 1) AS bump FROM \(map) m JOIN \(table) j ON j.src = m.old \
                WHERE \(conditions.joined(separator: " AND "))
                """))
        }
        if let inverse, reachable.contains(joinTable.destinationEntity), !plan.isOwned(inverse),
            !plan.isExcludedEverywhere(inverse.source, inverse.name)
        {
            var conditions = [
                "m.ent = \(tag(joinTable.destinationEntity))", "m.copy = 0",
                "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(joinTable.sourceEntity)) AND x.old = j.src AND x.copy = 0)",
            ]
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("m.pold IS NOT NULL") }
            queries.append(
                ("""
                SELECT \(tag(joinTable.sourceEntity)) AS ent, j.src AS id, 1 AS bump FROM \(map) m JOIN \(table) j ON j.dst = m.old \
                WHERE \(conditions.joined(separator: " AND "))
                """))
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

        // Pairs whose source is cloned. A pair exists when either side's relationship is kept for
        // its object (setting one side of an inverse pair sets the other, as in Core Data).
        if reachable.contains(joinTable.sourceEntity) {
            var columns = ["src", "dst"]
            var values = ["ms.new", plan.isOwned(source) ? "md.new" : "coalesce(md.new, j.dst)"]
            if let position = joinTable.sourcePositionColumn { columns.append(position); values.append("j.\(position)") }
            if let position = joinTable.destinationPositionColumn {
                columns.append(position)
                values.append(
                    "CASE WHEN md.new IS NOT NULL THEN j.\(position) ELSE coalesce((SELECT max(e.\(position)) FROM \(table) e WHERE e.dst = j.dst), -1) + row_number() OVER (PARTITION BY j.dst ORDER BY ms.new) END"
                )
            }
            let sourceKept =
                plan.isExcludedEverywhere(source.source, source.name)
                ? "0"
                : (excludedAtRoot(source.source, source.name) ? "ms.pold IS NOT NULL" : "1")
            var inverseKept = "0"
            if let inverse, !plan.isExcludedEverywhere(inverse.source, inverse.name) {
                inverseKept = "md.new IS NOT NULL" + (excludedAtRoot(inverse.source, inverse.name) ? " AND md.pold IS NOT NULL" : "")
            }
            let condition = "ms.ent = \(sourceTag) AND (((\(sourceKept)) AND (md.new IS NOT NULL OR \(plan.isOwned(source) ? 0 : 1))) OR (\(inverseKept)))"
            statements.append(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(map) ms JOIN \(table) j ON j.src = ms.old LEFT JOIN \(map) md ON md.ent = \(destinationTag) AND md.old = j.dst AND md.copy = ms.copy \
                WHERE \(condition)
                """)
        }

        // Pairs whose destination is cloned but whose source is not: the clone joins the
        // original source's list through a shared inverse.
        if let inverse, reachable.contains(joinTable.destinationEntity), !plan.isOwned(inverse),
            !plan.isExcludedEverywhere(inverse.source, inverse.name)
        {
            var columns = ["src", "dst"]
            var values = ["j.src", "md.new"]
            if let position = joinTable.sourcePositionColumn {
                columns.append(position)
                values.append(
                    "coalesce((SELECT max(e.\(position)) FROM \(table) e WHERE e.src = j.src), -1) + row_number() OVER (PARTITION BY j.src ORDER BY md.new)")
            }
            if let position = joinTable.destinationPositionColumn { columns.append(position); values.append("j.\(position)") }
            var conditions = [
                "md.ent = \(destinationTag)",
                "NOT EXISTS (SELECT 1 FROM \(map) ms WHERE ms.ent = \(sourceTag) AND ms.old = j.src AND ms.copy = md.copy)",
            ]
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("md.pold IS NOT NULL") }
            statements.append(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(map) md JOIN \(table) j ON j.dst = md.old WHERE \(conditions.joined(separator: " AND "))
                """)
        }
        return statements
    }

    // MARK: 6. followParent

    /// Possible parents of `entity`'s objects that have `followed`: entities with a followed
    /// relationship into it.
    private func followParents(of entity: EntityDescription, followed: String) -> [String] {
        model.entities.filter { candidate in
            stepOrder[candidate.name] != nil && candidate.attribute(named: followed) != nil
                && candidate.relationships.contains(where: { $0.destination == entity.name && isFollowed($0) })
        }.map(\.name)
    }

    /// The `followParent` attributes the INSERT can fill itself (no UPDATE pass over the rows):
    /// every possible parent's entity is inserted before this one, and its followed attribute is
    /// final when written — not itself waiting for a follow step.
    private func inlinableFollows(entities: [EntityDescription]) -> Set<String> {
        var inline: Set<String> = []
        for entity in entities {
            for attribute in entity.attributes {
                guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
                    !plan.isExcludedEverywhere(entity.name, attribute.name)
                else { continue }
                let parents = followParents(of: entity, followed: followed)
                guard !parents.isEmpty else { continue }
                let ready = parents.allSatisfy { parent in
                    guard stepOrder[parent]! < stepOrder[entity.name]! else { return false }
                    guard case .followParent(let grandparentAttribute, _) = plan.rule(for: parent, followed) else { return true }
                    // Final at its INSERT too: excluded, itself inline, or without any parent to follow.
                    return plan.isExcludedEverywhere(parent, followed) || inline.contains("\(parent).\(followed)")
                        || followParents(of: model.entity(named: parent)!, followed: grandparentAttribute).isEmpty
                }
                if ready { inline.insert("\(entity.name).\(attribute.name)") }
            }
        }
        return inline
    }

    private func followSteps(reachable: Set<String>) -> [FollowStep] {
        struct Key: Hashable { let entity: String; let attribute: String }
        var steps: [Key: (step: SQLiteGraphCopySQL.FollowStep, dependsOn: [Key])] = [:]
        for entity in model.entities where reachable.contains(entity.name) {
            for attribute in entity.attributes {
                guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
                    !plan.isExcludedEverywhere(entity.name, attribute.name)
                else { continue }
                let parents = followParents(of: entity, followed: followed)
                guard !parents.isEmpty, !inlineFollows.contains("\(entity.name).\(attribute.name)") else { continue }
                let cases = parents.map { parent in
                    "WHEN \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                }.joined(separator: " ")
                let entityTag = tag(entity.name)
                let table = quoted(entity.name)
                let value = "CASE m.pent \(cases) ELSE \(table).\(quoted(attribute.name)) END"
                let dependsOn = parents.compactMap { parent -> Key? in
                    guard case .followParent = plan.rule(for: parent, followed) else { return nil }
                    return Key(entity: parent, attribute: followed)
                }
                // A self-following attribute (a tree carrying its root's id) needs the value pushed
                // down every level: one recursive query over the clone's parent links does it.
                let selfFollowing = dependsOn.contains(Key(entity: entity.name, attribute: attribute.name))
                // Driven by the map's rows (its key has `ent` first), each row found by its `_id`.
                let update =
                    "UPDATE \(table) SET \(quoted(attribute.name)) = \(value) FROM \(map) m "
                    + "WHERE m.ent = \(entityTag) AND m.pnew IS NOT NULL AND \(table).\"_id\" = m.new"
                var propagation: [String] = []
                if selfFollowing {
                    // The parent → child links of this entity's clones, keyed by parent, so each level
                    // of the recursion is a key lookup (the map itself is keyed by old id).
                    let tree = SQLiteGraphCopySQL.treeTable
                    propagation = [
                        "DELETE FROM \(SQLiteGraphCopySQL.chainTable)",
                        "DELETE FROM \(tree)",
                        "INSERT INTO \(tree) (pnew, new) SELECT pnew, new FROM \(map) WHERE ent = \(entityTag) AND pent = \(entityTag) AND pnew IS NOT NULL",
                        """
                        INSERT INTO \(SQLiteGraphCopySQL.chainTable) (new, value) WITH RECURSIVE chain(new, value) AS (\
                        SELECT m.new, e.\(quoted(attribute.name)) FROM \(map) m JOIN \(table) e ON e."_id" = m.new \
                        WHERE m.ent = \(entityTag) AND (m.pnew IS NULL OR m.pent <> \(entityTag)) \
                        UNION ALL SELECT c.new, chain.value FROM chain JOIN \(tree) c ON c.pnew = chain.new\
                        ) SELECT new, value FROM chain
                        """,
                        """
                        UPDATE \(table) SET \(quoted(attribute.name)) = c.value FROM \(SQLiteGraphCopySQL.chainTable) c \
                        WHERE \(table)."_id" = c.new AND c.new IN (SELECT new FROM \(tree))
                        """,
                    ]
                }
                steps[Key(entity: entity.name, attribute: attribute.name)] = (
                    SQLiteGraphCopySQL.FollowStep(entity: entity.name, attribute: attribute.name, update: update, propagation: propagation), dependsOn
                )
            }
        }
        // Parents' values first: a depth-first topological order over the follow dependencies.
        var ordered: [SQLiteGraphCopySQL.FollowStep] = []
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
