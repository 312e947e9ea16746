import ClonerModel
import Foundation

extension PostgreSQLStoreContext {
    /// Deletes one object and applies the delete rules set-wise, as the SQLite store does: the
    /// cascade closure comes from one recursive query (any depth, cycles included), `deny` is
    /// checked over the whole closure, references from surviving objects are cleared with one
    /// UPDATE per reference column, and each entity's doomed rows go in one DELETE.
    ///
    /// The closure is held as one `int8[]` per entity rather than a temporary table: nothing is
    /// left in the pooled session, and large sets are matched with `IN (SELECT unnest(…))`, which
    /// PostgreSQL hashes.
    func deleteObject(_ delete: ChangeSet.Delete, touched: inout TouchedObjects) throws -> [String: Int] {
        let entity = try deletable(delete)

        var doomed: [String: [Int64]] = [:]
        try run(cascadeClosureSQL(), [.int8(Int64(schema.entityTag(entity.name))), .int8(delete.id)]).forEachRow { row in
            doomed[model.entities[Int(row.int64(0))].name, default: []].append(row.int64(1))
        }
        func ids(_ entity: String) -> PostgreSQLValue { Self.idArray(doomed[entity] ?? []) }

        // deny: a doomed object still related to something that survives.
        for source in model.entities where doomed[source.name] != nil {
            for relationship in source.relationships where relationship.deleteRule == .deny {
                let join = schema.join(for: relationship)
                let sql = """
                    SELECT t.\(quoted(join.sourceColumn)) FROM \(quoted(join.table)) AS t
                    WHERE t.\(quoted(join.sourceColumn)) IN (SELECT unnest($1::int8[])) AND \(join.nonNullCondition(alias: "t"))
                    AND t.\(quoted(join.destinationColumn)) NOT IN (SELECT unnest($2::int8[]))
                    LIMIT 1
                    """
                if let blocked = try scalarInt64(sql, [ids(source.name), ids(relationship.destination)]) {
                    throw StoreError.deleteDenied(entity: source.name, id: blocked, relationship: relationship.name)
                }
            }
        }

        // Survivors that point at doomed objects lose the reference; survivors listed by a doomed
        // object's reference column see their inverse list change.
        for (table, foreignKeys) in schema.foreignKeys.sorted(by: { $0.key < $1.key }) {
            for foreignKey in foreignKeys {
                let column = quoted(foreignKey.column)
                if doomed[foreignKey.referencedEntity] != nil {
                    let pointsAtDoomed = "\(column) IN (SELECT unnest($1::int8[])) AND \"_id\" NOT IN (SELECT unnest($2::int8[]))"
                    let parameters = [ids(foreignKey.referencedEntity), ids(table)]
                    var survivors: [Int64] = []
                    try run("SELECT \"_id\" FROM \(quoted(table)) WHERE \(pointsAtDoomed)", parameters).forEachRow { survivors.append($0.int64(0)) }
                    if !survivors.isEmpty {
                        if foreignKey.isRequired {
                            throw StoreError.requiredRelationship(entity: table, relationship: foreignKey.relationship ?? foreignKey.column)
                        }
                        let position = foreignKey.positionColumn.map { ", \(quoted($0)) = NULL" } ?? ""
                        try run("UPDATE \(quoted(table)) SET \(column) = NULL\(position) WHERE \"_id\" = ANY($1)", [Self.idArray(survivors)])
                        touched.insert(table, contentsOf: survivors)
                    }
                }
                if foreignKey.inverseRelationship != nil, doomed[table] != nil {
                    var listed: [Int64] = []
                    try run(
                        """
                        SELECT DISTINCT \(column) FROM \(quoted(table)) WHERE "_id" IN (SELECT unnest($1::int8[]))
                        AND \(column) IS NOT NULL AND \(column) NOT IN (SELECT unnest($2::int8[]))
                        """, [ids(table), ids(foreignKey.referencedEntity)]
                    ).forEachRow { listed.append($0.int64(0)) }
                    touched.insert(foreignKey.referencedEntity, contentsOf: listed)
                }
            }
        }
        for joinTable in schema.joinTables {
            let table = quoted(joinTable.name)
            let sides: [(own: String, other: String, ownEntity: String, otherEntity: String, otherHasList: Bool)] = [
                ("src", "dst", joinTable.sourceEntity, joinTable.destinationEntity, joinTable.isManyToMany),
                ("dst", "src", joinTable.destinationEntity, joinTable.sourceEntity, true),
            ]
            for side in sides where side.otherHasList && doomed[side.ownEntity] != nil {
                var listed: [Int64] = []
                try run(
                    """
                    SELECT DISTINCT \(side.other) FROM \(table) WHERE \(side.own) IN (SELECT unnest($1::int8[]))
                    AND \(side.other) NOT IN (SELECT unnest($2::int8[]))
                    """, [ids(side.ownEntity), ids(side.otherEntity)]
                ).forEachRow { listed.append($0.int64(0)) }
                touched.insert(side.otherEntity, contentsOf: listed)
            }
        }

        var counts: [String: Int] = [:]
        for doomedEntity in model.entities where doomed[doomedEntity.name] != nil {
            let binary = schema.binaryAttributes(of: doomedEntity.name)
            if !binary.isEmpty {
                touched.droppedBlobs.formUnion(try blobKeys(entity: doomedEntity.name, columns: binary, ids: doomed[doomedEntity.name] ?? []))
            }
            let deleted = try run(
                "DELETE FROM \(quoted(doomedEntity.name)) WHERE \"_id\" IN (SELECT unnest($1::int8[]))",
                [ids(doomedEntity.name)]
            ).affectedRows
            if deleted > 0 { counts[doomedEntity.name] = deleted }
        }
        return counts
    }

    /// The doomed set: the object, and through every `cascade` relationship whatever it reaches.
    /// One recursive statement whose recursive term names the closure once, joined laterally to
    /// every cascade edge; `UNION` drops repeats, so cycles end.
    private func cascadeClosureSQL() -> String {
        var edges: [String] = []
        for source in model.entities {
            for relationship in source.relationships where relationship.deleteRule == .cascade {
                let join = schema.join(for: relationship)
                edges.append(
                    """
                    SELECT \(schema.entityTag(relationship.destination))::int8, t.\(quoted(join.destinationColumn))
                    FROM \(quoted(join.table)) AS t
                    WHERE c.ent = \(schema.entityTag(source.name)) AND t.\(quoted(join.sourceColumn)) = c.id AND \(join.nonNullCondition(alias: "t"))
                    """)
            }
        }
        guard !edges.isEmpty else { return "SELECT $1::int8, $2::int8" }
        return """
            WITH RECURSIVE closure(ent, id) AS (
              SELECT $1::int8, $2::int8
              UNION
              SELECT e.ent, e.id FROM closure AS c CROSS JOIN LATERAL (\(edges.joined(separator: "\nUNION ALL\n"))) AS e(ent, id)
            )
            SELECT ent, id FROM closure
            """
    }
}
