import ClonerModel

/// A select of the shared objects the copies link (`GraphCopySQLBuilder.linkedSelects`): rows
/// `ent, id, bump` (bump 1 where the object's version steps, its inverse changing), of entity
/// `tag`, `ordered` where the copies join an ordered list of those objects at its end. It reads
/// the map rows of the copies of entity `source` only.
struct GraphCopyLinkedSelect {
    let tag: Int
    let source: Int
    let ordered: Bool
    /// Read from a reference column of `source` (rather than a join table): with `ordered`, the
    /// objects it finds are copies that join an original's list at its end.
    let reference: Bool
    let sql: String
}

extension GraphCopySQLBuilder {
    /// The conditions that a map row `m` is read for the linked objects: every copy's own, or the
    /// one copy whose links stand for all; and that the linked object `old` is not copied in it.
    private func linkedConditions(entity: String, destination: String, old: String) -> [String] {
        mapOf(tag(entity), "m") + (linkedCopy.map { ["m.cp = \($0)"] } ?? [])
            + (mayBeMapped(destination)
                ? ["NOT EXISTS (SELECT 1 FROM \(mapRows(tag(destination), "x")) WHERE \(mapKey(tag(destination), "x", old: old, copy: "m.cp")))"] : [])
    }

    /// Whether the map may hold objects of `entity`: only what the walk can reach is cloned, so
    /// a look into the map for an entity it cannot reach (a note's shared tags) finds nothing,
    /// and is left out rather than made once per row.
    private func mayBeMapped(_ entity: String) -> Bool { reachable.contains(entity) }

    /// Every source of shared objects in one statement (one round trip, one plan, however many
    /// foreign keys and join tables point outside the copy), an object found again keeping its
    /// strongest bump; nil for none.
    static func linkedInsert(_ selects: [String]) -> String? {
        guard !selects.isEmpty else { return nil }
        return Dialect.insertKeepingGreatest("bump", key: ["ent", "id"], into: linkedTable, select: selects.joined(separator: " UNION ALL "))
    }

    /// The version step of every linked object of `entity` whose version steps (`bump` 1, its
    /// inverse changing): parameter 1 is the entity's tag. Once per object, however many copies
    /// link it.
    static func versionStep(of entity: String) -> String {
        "UPDATE \(quoted(entity)) SET \"_version\" = \"_version\" + 1 "
            + "WHERE \"_id\" IN (SELECT id FROM \(linkedTable) WHERE ent = \(Dialect.parameter(1)) AND bump = 1)"
    }

    /// Every source of shared objects the copies link: the reference columns and the join tables
    /// that point outside the copy.
    func linkedSelects(entities: [EntityDescription]) -> [GraphCopyLinkedSelect] {
        entities.flatMap(entityLinkedSelects) + schema.joinTables.flatMap(joinLinkedSelects)
    }

    private func entityLinkedSelects(_ entity: EntityDescription) -> [GraphCopyLinkedSelect] {
        (schema.foreignKeys[entity.name] ?? []).compactMap { foreignKey in
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            guard !plan.isOwned(relationship), !plan.isExcludedEverywhere(entity.name, relationship.name) else { return nil }
            let column = "o.\(quoted(foreignKey.column))"
            var conditions = linkedConditions(entity: entity.name, destination: relationship.destination, old: column) + ["\(column) IS NOT NULL"]
            // An object whose parent reached it through this reference's inverse points at that
            // parent, which is cloned: when the inverse is the only edge from the destination's
            // entity to this one, the map's parent entity tells, and the row is never read (a
            // note's items, memos, item data and attachments all point back at their parents).
            if let inverse = model.inverse(of: relationship), isFollowed(inverse),
                model.entity(named: relationship.destination)?.relationships.filter({ $0.destination == entity.name && isFollowed($0) }).count == 1
            {
                conditions.insert("(m.pent IS NULL OR m.pent <> \(tag(relationship.destination)))", at: 0)
            }
            // Not from a root whose relationship is left out (excluded at the root, or replaced by `set`).
            if excludedAtRoot(entity.name, relationship.name) {
                conditions.append("m.pold IS NOT NULL")
            } else if let isSet = setAtRoot(entity.name, relationship.name, alias: "m") {
                conditions.append("NOT \(isSet)")
            }
            return GraphCopyLinkedSelect(
                tag: tag(relationship.destination), source: tag(entity.name), ordered: model.inverse(of: relationship)?.isOrdered ?? false,
                reference: true,
                sql: """
                    SELECT \(tag(relationship.destination)) AS ent, \(column) AS id, \(relationship.hasInverse ? 1 : 0) AS bump \
                    FROM \(mapRows(tag(entity.name), "m")) JOIN \(quoted(entity.name)) o ON o."_id" = m.old WHERE \(allOf(conditions))
                    """)
        }
    }

    private func joinLinkedSelects(_ joinTable: JoinTableDescription) -> [GraphCopyLinkedSelect] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        var selects: [GraphCopyLinkedSelect] = []
        if reachable.contains(joinTable.sourceEntity), !plan.isOwned(source), !plan.isExcludedEverywhere(source.source, source.name) {
            var conditions = linkedConditions(entity: joinTable.sourceEntity, destination: joinTable.destinationEntity, old: "j.\"dst\"")
            if excludedAtRoot(source.source, source.name) { conditions.append("m.pold IS NOT NULL") }
            selects.append(
                GraphCopyLinkedSelect(
                    tag: tag(joinTable.destinationEntity), source: tag(joinTable.sourceEntity), ordered: inverse?.isOrdered ?? false, reference: false,
                    sql: """
                        SELECT \(tag(joinTable.destinationEntity)) AS ent, j."dst" AS id, \(inverse == nil ? 0 : 1) AS bump \
                        FROM \(mapRows(tag(joinTable.sourceEntity), "m")) JOIN \(table) j ON j."src" = m.old WHERE \(allOf(conditions))
                        """))
        }
        if let inverse, reachable.contains(joinTable.destinationEntity), !plan.isOwned(inverse),
            !plan.isExcludedEverywhere(inverse.source, inverse.name)
        {
            var conditions = linkedConditions(entity: joinTable.destinationEntity, destination: joinTable.sourceEntity, old: "j.\"src\"")
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("m.pold IS NOT NULL") }
            selects.append(
                GraphCopyLinkedSelect(
                    tag: tag(joinTable.sourceEntity), source: tag(joinTable.destinationEntity), ordered: source.isOrdered, reference: false,
                    sql: """
                        SELECT \(tag(joinTable.sourceEntity)) AS ent, j."src" AS id, 1 AS bump \
                        FROM \(mapRows(tag(joinTable.destinationEntity), "m")) JOIN \(table) j ON j."dst" = m.old WHERE \(allOf(conditions))
                        """))
        }
        return selects
    }

    /// The rows of a join table the copies add: re-pointed into each copy, or shared.
    func joinTableInserts(_ joinTable: JoinTableDescription) -> [String] {
        let (source, inverse) = sides(of: joinTable)
        let table = quoted(joinTable.name)
        let sourceTag = tag(joinTable.sourceEntity)
        let destinationTag = tag(joinTable.destinationEntity)
        let (yes, no) = (Dialect.trueLiteral, Dialect.falseLiteral)
        var statements: [String] = []

        // Pairs whose source is cloned. A pair exists when either side's relationship is kept for
        // its object (setting one side of an inverse pair sets the other, as in Core Data).
        if reachable.contains(joinTable.sourceEntity) {
            // The destination's clone, where the map may hold it.
            let mapped = mayBeMapped(joinTable.destinationEntity)
            let (destinationNew, destinationPold) = mapped ? ("md.new", "md.pold") : (Dialect.nullReference, Dialect.nullReference)
            var columns = ["\"src\"", "\"dst\""]
            var values = ["ms.new", plan.isOwned(source) ? destinationNew : "coalesce(\(destinationNew), j.\"dst\")"]
            if let position = joinTable.sourcePositionColumn {
                columns.append(quoted(position))
                values.append("j.\(quoted(position))")
            }
            if let position = joinTable.destinationPositionColumn {
                let column = quoted(position)
                columns.append(column)
                // After every part's rows where the destination's list is declared into a hierarchy.
                let end =
                    inverse.flatMap { schema.hierarchyListEnd(of: $0, owner: "j.\"dst\"") }
                    ?? "coalesce((SELECT max(e.\(column)) FROM \(table) e WHERE e.\"dst\" = j.\"dst\"), -1)"
                values.append(
                    "CASE WHEN \(destinationNew) IS NOT NULL THEN j.\(column) ELSE \(end) + row_number() OVER (PARTITION BY j.\"dst\" ORDER BY ms.new) END"
                )
            }
            let sourceKept =
                plan.isExcludedEverywhere(source.source, source.name)
                ? no
                : (excludedAtRoot(source.source, source.name) ? "ms.pold IS NOT NULL" : yes)
            var inverseKept = no
            if let inverse, !plan.isExcludedEverywhere(inverse.source, inverse.name) {
                inverseKept = "\(destinationNew) IS NOT NULL" + (excludedAtRoot(inverse.source, inverse.name) ? " AND \(destinationPold) IS NOT NULL" : "")
            }
            let condition =
                allOf(
                    mapOf(sourceTag, "ms") + [
                        "(((\(sourceKept)) AND (\(destinationNew) IS NOT NULL OR \(plan.isOwned(source) ? no : yes))) OR (\(inverseKept)))"
                    ])
            let destinationJoin =
                mapped ? " LEFT JOIN \(mapRows(destinationTag, "md")) ON \(mapKey(destinationTag, "md", old: "j.\"dst\"", copy: "ms.cp"))" : ""
            statements.append(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(mapRows(sourceTag, "ms")) JOIN \(table) j ON j."src" = ms.old\(destinationJoin) \
                WHERE \(condition)
                """)
        }

        // Pairs whose destination is cloned but whose source is not: the clone joins the
        // original source's list through a shared inverse.
        if let inverse, reachable.contains(joinTable.destinationEntity), !plan.isOwned(inverse),
            !plan.isExcludedEverywhere(inverse.source, inverse.name)
        {
            var columns = ["\"src\"", "\"dst\""]
            var values = ["j.\"src\"", "md.new"]
            if let position = joinTable.sourcePositionColumn {
                let column = quoted(position)
                columns.append(column)
                // After every part's rows where the source's list is declared into a hierarchy.
                let end =
                    schema.hierarchyListEnd(of: source, owner: "j.\"src\"")
                    ?? "coalesce((SELECT max(e.\(column)) FROM \(table) e WHERE e.\"src\" = j.\"src\"), -1)"
                values.append("\(end) + row_number() OVER (PARTITION BY j.\"src\" ORDER BY md.new)")
            }
            if let position = joinTable.destinationPositionColumn {
                columns.append(quoted(position))
                values.append("j.\(quoted(position))")
            }
            var conditions = mapOf(destinationTag, "md")
            if mayBeMapped(joinTable.sourceEntity) {
                conditions.append("NOT EXISTS (SELECT 1 FROM \(mapRows(sourceTag, "ms")) WHERE \(mapKey(sourceTag, "ms", old: "j.\"src\"", copy: "md.cp")))")
            }
            if excludedAtRoot(inverse.source, inverse.name) { conditions.append("md.pold IS NOT NULL") }
            statements.append(
                """
                INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM \(mapRows(destinationTag, "md")) JOIN \(table) j ON j."dst" = md.old WHERE \(allOf(conditions))
                """)
        }
        return statements
    }
}
