import ClonerModel
import ClonerStore

/// Writes the SQL of a `ClonePlan`. Row aliases used throughout: `m` is the object's map row
/// (`old`, `new`, `pent`, `pold`, `pnew`), `o` the original row. The root is the only object
/// without a parent, so `m.pold IS NULL` is how a statement tells the root apart.
struct ClonePlanBuilder {
    let schema: StoreSchema
    let root: EntityDescription
    let exclusions: CloneExclusions
    let request: CloneRequest
    private let relationshipIndex: [String: Int]

    init(schema: StoreSchema, root: EntityDescription, exclusions: CloneExclusions, request: CloneRequest) {
        self.schema = schema
        self.root = root
        self.exclusions = exclusions
        self.request = request
        var index: [String: Int] = [:]
        for relationship in schema.model.entities.flatMap(\.relationships) { index[relationship.qualifiedName] = index.count }
        self.relationshipIndex = index
    }

    private var model: DataModel { schema.model }
    private var map: String { ClonePlan.mapTable }

    private func tag(_ entity: String) -> Int { schema.entityTag(entity) }

    private func isRootEntity(_ entity: String) -> Bool { entity == root.name }

    /// Owned relationships not excluded for a whole entity: the edges a walk may take.
    private func isFollowed(_ relationship: RelationshipDescription) -> Bool {
        relationship.isOwned && !exclusions.isExcludedEverywhere(relationship.source, relationship.name)
    }

    private func excludedAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && exclusions.isExcludedAtRoot(property)
    }

    private func setAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && request.set[property] != nil
    }

    func reachableEntities() -> Set<String> {
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

    func walkSQL() -> String {
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
                parts.append("""
                    SELECT \(tag(relationship.destination)), t.\(quoted(join.destinationColumn)), \(relationshipIndex[relationship.qualifiedName]!), w.ent, w.id \
                    FROM w JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = w.id WHERE \(conditions.joined(separator: " AND "))
                    """)
            }
        }
        return "INSERT INTO \(ClonePlan.walkTable) (ent, id, via, pent, pid) WITH RECURSIVE w(ent, id, via, pent, pid) AS (\n"
            + parts.joined(separator: "\nUNION\n") + "\n) SELECT ent, id, via, pent, pid FROM w"
    }

    // MARK: 2–4. Map and insert per entity

    func entityStep(_ entity: EntityDescription) -> ClonePlan.EntityStep {
        let entityTag = tag(entity.name)
        let table = quoted(entity.name)
        let mapFill = """
            INSERT INTO \(map) (ent, old, new, pent, pold) SELECT ent, id, :base + row_number() OVER (ORDER BY id), pent, pid \
            FROM (SELECT ent, id, pent, pid, min(seq) FROM \(ClonePlan.walkTable) WHERE ent = \(entityTag) GROUP BY id)
            """
        let nextIDQuery = """
            SELECT max(coalesce((SELECT max("_id") FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = '\(entity.name)'), 0))
            """
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
            joins.append("LEFT JOIN \(map) \(alias) ON \(alias).ent = \(tag(relationship.destination)) AND \(alias).old = o.\(quoted(foreignKey.column))")
            let mapped = "\(alias).new"
            let reference = referenceExpression(entity, relationship, column: foreignKey.column, mapped: mapped)
            columns.append(quoted(foreignKey.column))
            simpleValues.append(reference)
            appendingValues.append(reference)
            if let position = foreignKey.positionColumn {
                columns.append(quoted(position))
                simpleValues.append("CASE WHEN (\(reference)) IS NULL THEN NULL ELSE o.\(quoted(position)) END")
                appendingValues.append(positionExpression(entity, relationship, column: foreignKey.column, position: position,
                                                          reference: reference, mapped: mapped))
                let rootSet = setAtRoot(entity.name, relationship.name) ? " AND m.pold IS NOT NULL" : ""
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
        return ClonePlan.EntityStep(name: entity.name, tag: entityTag, mapFill: mapFill, nextIDQuery: nextIDQuery, inserts: inserts)
    }

    private func blank(_ attribute: AttributeDescription) -> String {
        attribute.defaultValue.map(\.sqlLiteral) ?? "NULL"
    }

    /// DESIGN.md §3 attribute rules, in precedence: exclude, followParent (+ withoutParent),
    /// rebuild, copy; the request's `set` on the root over all of them.
    private func attributeExpression(_ entity: EntityDescription, _ attribute: AttributeDescription) -> String {
        let original = "o.\(quoted(attribute.name))"
        let rule = attribute.cloneRule
        let rebuilt: String
        switch rule.rebuild {
        case .uuid?: rebuilt = ClonePlan.uuidExpression
        case .now?: rebuilt = ":now"
        case nil: rebuilt = original
        }
        var expression: String
        if exclusions.isExcludedEverywhere(entity.name, attribute.name) {
            expression = blank(attribute)
        } else if rule.followParent != nil {
            // With a parent, the follow step fills the value once the parent's clone exists; until
            // then the row holds a placeholder that satisfies the column.
            let withoutParent = rule.withoutParent == .blank ? blank(attribute) : rebuilt
            let placeholder = attribute.isOptional ? "NULL" : (attribute.defaultValue.map(\.sqlLiteral) ?? original)
            // A parent whose entity lacks the followed attribute counts as no parent (DESIGN §3).
            let followable = model.entities.filter { $0.attribute(named: rule.followParent!) != nil }.map { String(tag($0.name)) }
            let noParent = followable.isEmpty ? "1" : "m.pold IS NULL OR m.pent NOT IN (\(followable.joined(separator: ", ")))"
            expression = "CASE WHEN \(noParent) THEN \(withoutParent) ELSE \(placeholder) END"
        } else {
            expression = rebuilt
        }
        if excludedAtRoot(entity.name, attribute.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(blank(attribute)) ELSE \(expression) END"
        }
        if setAtRoot(entity.name, attribute.name) {
            expression = "CASE WHEN m.pold IS NULL THEN :set_\(attribute.name) ELSE \(expression) END"
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
        if let inverse = model.inverse(of: relationship), !exclusions.isExcludedEverywhere(inverse.source, inverse.name) {
            excludedValue = mapped
        }
        var expression = relationship.isOwned ? mapped : "coalesce(\(mapped), \(original))"
        if exclusions.isExcludedEverywhere(entity.name, relationship.name) { expression = excludedValue }
        if excludedAtRoot(entity.name, relationship.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(excludedValue) ELSE \(expression) END"
        }
        if setAtRoot(entity.name, relationship.name) {
            expression = "CASE WHEN m.pold IS NULL THEN :set_\(relationship.name) ELSE \(expression) END"
        }
        return expression
    }

    /// Position in the destination's ordered list: a clone under a cloned owner keeps its place;
    /// a clone joining an original owner goes to the end (rule 7), in original order.
    private func positionExpression(_ entity: EntityDescription, _ relationship: RelationshipDescription, column: String,
                                    position: String, reference: String, mapped: String) -> String {
        let table = quoted(entity.name)
        let original = "o.\(quoted(column))"
        let positionColumn = quoted(position)
        var cases = ["WHEN (\(reference)) IS NULL THEN NULL"]
        if setAtRoot(entity.name, relationship.name) {
            cases.append("WHEN m.pold IS NULL THEN coalesce((SELECT max(e.\(positionColumn)) FROM \(table) e WHERE e.\(quoted(column)) = :set_\(relationship.name)), -1) + 1")
        }
        cases.append("WHEN \(mapped) IS NOT NULL THEN o.\(positionColumn)")
        cases.append("ELSE coalesce((SELECT max(e.\(positionColumn)) FROM \(table) e WHERE e.\(quoted(column)) = \(original)), -1) + row_number() OVER (PARTITION BY \(original) ORDER BY o.\(positionColumn), o.\"_id\")")
        return "CASE " + cases.joined(separator: " ") + " END"
    }

    // MARK: 3. Linked shared objects

    private static func linkedInsert(_ select: String) -> String {
        "INSERT INTO \(ClonePlan.linkedTable) (ent, id, bump) \(select) ON CONFLICT (ent, id) DO UPDATE SET bump = max(bump, excluded.bump)"
    }

    func linkedQueries(_ entity: EntityDescription) -> [String] {
        (schema.foreignKeys[entity.name] ?? []).compactMap { foreignKey in
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            guard !relationship.isOwned, !exclusions.isExcludedEverywhere(entity.name, relationship.name) else { return nil }
            let column = "o.\(quoted(foreignKey.column))"
            var conditions = ["m.ent = \(tag(entity.name))", "\(column) IS NOT NULL",
                              "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(relationship.destination)) AND x.old = \(column))"]
            if excludedAtRoot(entity.name, relationship.name) || setAtRoot(entity.name, relationship.name) {
                conditions.append("m.pold IS NOT NULL")
            }
            return ClonePlanBuilder.linkedInsert("""
                SELECT \(tag(relationship.destination)), \(column), \(relationship.hasInverse ? 1 : 0) \
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

    func joinLinkedQueries(_ joinTable: JoinTableDescription, reachable: Set<String>) -> [String] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        var queries: [String] = []
        if reachable.contains(joinTable.sourceEntity), !source.isOwned, !exclusions.isExcludedEverywhere(source.source, source.name) {
            var conditions = ["m.ent = \(tag(joinTable.sourceEntity))",
                              "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(joinTable.destinationEntity)) AND x.old = j.dst)"]
            if excludedAtRoot(source.source, source.name) { conditions.append("m.pold IS NOT NULL") }
            queries.append(ClonePlanBuilder.linkedInsert("""
                SELECT \(tag(joinTable.destinationEntity)), j.dst, \(inverse == nil ? 0 : 1) FROM \(map) m JOIN \(table) j ON j.src = m.old \
                WHERE \(conditions.joined(separator: " AND "))
                """))
        }
        if let inverse, reachable.contains(joinTable.destinationEntity), !inverse.isOwned,
           !exclusions.isExcludedEverywhere(inverse.source, inverse.name) {
            var conditions = ["m.ent = \(tag(joinTable.destinationEntity))",
                              "NOT EXISTS (SELECT 1 FROM \(map) x WHERE x.ent = \(tag(joinTable.sourceEntity)) AND x.old = j.src)"]
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("m.pold IS NOT NULL") }
            queries.append(ClonePlanBuilder.linkedInsert("""
                SELECT \(tag(joinTable.sourceEntity)), j.src, 1 FROM \(map) m JOIN \(table) j ON j.dst = m.old \
                WHERE \(conditions.joined(separator: " AND "))
                """))
        }
        return queries
    }

    // MARK: 5. Join tables

    func joinInserts(_ joinTable: JoinTableDescription, reachable: Set<String>) -> [String] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        let sourceTag = tag(joinTable.sourceEntity)
        let destinationTag = tag(joinTable.destinationEntity)
        var statements: [String] = []

        // Pairs whose source is cloned. A pair exists when either side's relationship is kept for
        // its object (setting one side of an inverse pair sets the other, as in Core Data).
        if reachable.contains(joinTable.sourceEntity) {
            var columns = ["src", "dst"]
            var values = ["ms.new", source.isOwned ? "md.new" : "coalesce(md.new, j.dst)"]
            if let position = joinTable.sourcePositionColumn { columns.append(position); values.append("j.\(position)") }
            if let position = joinTable.destinationPositionColumn {
                columns.append(position)
                values.append("CASE WHEN md.new IS NOT NULL THEN j.\(position) ELSE coalesce((SELECT max(e.\(position)) FROM \(table) e WHERE e.dst = j.dst), -1) + row_number() OVER (PARTITION BY j.dst ORDER BY ms.new) END")
            }
            let sourceKept = exclusions.isExcludedEverywhere(source.source, source.name) ? "0"
                : (excludedAtRoot(source.source, source.name) ? "ms.pold IS NOT NULL" : "1")
            var inverseKept = "0"
            if let inverse, !exclusions.isExcludedEverywhere(inverse.source, inverse.name) {
                inverseKept = "md.new IS NOT NULL" + (excludedAtRoot(inverse.source, inverse.name) ? " AND md.pold IS NOT NULL" : "")
            }
            let condition = "ms.ent = \(sourceTag) AND (((\(sourceKept)) AND (md.new IS NOT NULL OR \(source.isOwned ? 0 : 1))) OR (\(inverseKept)))"
            statements.append("""
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(map) ms JOIN \(table) j ON j.src = ms.old LEFT JOIN \(map) md ON md.ent = \(destinationTag) AND md.old = j.dst \
                WHERE \(condition)
                """)
        }

        // Pairs whose destination is cloned but whose source is not: the clone joins the
        // original source's list through a shared inverse.
        if let inverse, reachable.contains(joinTable.destinationEntity), !inverse.isOwned,
           !exclusions.isExcludedEverywhere(inverse.source, inverse.name) {
            var columns = ["src", "dst"]
            var values = ["j.src", "md.new"]
            if let position = joinTable.sourcePositionColumn {
                columns.append(position)
                values.append("coalesce((SELECT max(e.\(position)) FROM \(table) e WHERE e.src = j.src), -1) + row_number() OVER (PARTITION BY j.src ORDER BY md.new)")
            }
            if let position = joinTable.destinationPositionColumn { columns.append(position); values.append("j.\(position)") }
            var conditions = ["md.ent = \(destinationTag)",
                              "NOT EXISTS (SELECT 1 FROM \(map) ms WHERE ms.ent = \(sourceTag) AND ms.old = j.src)"]
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("md.pold IS NOT NULL") }
            statements.append("""
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(map) md JOIN \(table) j ON j.dst = md.old WHERE \(conditions.joined(separator: " AND "))
                """)
        }
        return statements
    }

    // MARK: 6. followParent

    func followSteps(reachable: Set<String>) -> [ClonePlan.FollowStep] {
        struct Key: Hashable { let entity: String; let attribute: String }
        var steps: [Key: (step: ClonePlan.FollowStep, dependsOn: [Key])] = [:]
        for entity in model.entities where reachable.contains(entity.name) {
            for attribute in entity.attributes {
                guard let followed = attribute.cloneRule.followParent,
                      !exclusions.isExcludedEverywhere(entity.name, attribute.name) else { continue }
                // Possible parents: entities with a followed relationship into this one.
                var parents: [String] = []
                for candidate in model.entities where reachable.contains(candidate.name) {
                    if candidate.relationships.contains(where: { $0.destination == entity.name && isFollowed($0) }),
                       candidate.attribute(named: followed) != nil {
                        parents.append(candidate.name)
                    }
                }
                guard !parents.isEmpty else { continue }
                let cases = parents.map { parent in
                    "WHEN \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                }.joined(separator: " ")
                let entityTag = tag(entity.name)
                let table = quoted(entity.name)
                let value = "(SELECT CASE m.pent \(cases) ELSE \(table).\(quoted(attribute.name)) END FROM \(map) m WHERE m.ent = \(entityTag) AND m.new = \(table).\"_id\")"
                let dependsOn = parents.compactMap { parent -> Key? in
                    let parentAttribute = model.entity(named: parent)!.attribute(named: followed)!
                    return parentAttribute.cloneRule.followParent != nil ? Key(entity: parent, attribute: followed) : nil
                }
                // A self-following attribute (a tree carrying its root's id) needs the value pushed
                // down every level: one recursive query over the clone's parent links does it.
                let selfFollowing = dependsOn.contains(Key(entity: entity.name, attribute: attribute.name))
                let update = "UPDATE \(table) SET \(quoted(attribute.name)) = \(value) WHERE \"_id\" IN (SELECT new FROM \(map) WHERE ent = \(entityTag) AND pnew IS NOT NULL)"
                var propagation: [String] = []
                if selfFollowing {
                    propagation = [
                        "DELETE FROM \(ClonePlan.chainTable)",
                        """
                        INSERT INTO \(ClonePlan.chainTable) (new, value) WITH RECURSIVE chain(new, value) AS (\
                        SELECT m.new, e.\(quoted(attribute.name)) FROM \(map) m JOIN \(table) e ON e."_id" = m.new \
                        WHERE m.ent = \(entityTag) AND (m.pnew IS NULL OR m.pent <> \(entityTag)) \
                        UNION ALL SELECT c.new, chain.value FROM chain JOIN \(map) c ON c.ent = \(entityTag) AND c.pent = \(entityTag) AND c.pnew = chain.new\
                        ) SELECT new, value FROM chain
                        """,
                        """
                        UPDATE \(table) SET \(quoted(attribute.name)) = (SELECT value FROM \(ClonePlan.chainTable) c WHERE c.new = \(table)."_id") \
                        WHERE "_id" IN (SELECT new FROM \(map) WHERE ent = \(entityTag) AND pent = \(entityTag))
                        """,
                    ]
                }
                steps[Key(entity: entity.name, attribute: attribute.name)] = (
                    ClonePlan.FollowStep(entity: entity.name, attribute: attribute.name, update: update, propagation: propagation), dependsOn)
            }
        }
        // Parents' values first: a depth-first topological order over the follow dependencies.
        var ordered: [ClonePlan.FollowStep] = []
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
