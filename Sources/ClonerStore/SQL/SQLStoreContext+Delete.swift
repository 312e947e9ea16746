import ClonerModel
import Foundation

extension SQLStoreContext {
    /// Deletes one object and applies the delete rules set-wise: the cascade closure comes from
    /// one recursive query (any depth, cycles included), `deny` is checked over the whole closure,
    /// references from surviving objects are cleared with one UPDATE per reference column, and
    /// each entity's doomed rows go in one DELETE. Entities the closure does not reach send no
    /// statement.
    ///
    /// The closure is held as one id list per entity, bound as one parameter to each statement,
    /// rather than in a work table: nothing is created per request, nothing is left in a pooled
    /// session.
    ///
    /// `noAction` leaves the destinations alone, but a reference column still cannot point at a
    /// row that no longer exists, so the survivors' stored reference to the deleted object is
    /// cleared like `nullify` (Core Data would leave it dangling; the foreign keys forbid it).
    func deleteObject(_ delete: ChangeSet.Delete, touched: inout TouchedObjects) throws -> [String: Int] {
        let entity = try deletable(delete)

        var doomed: [String: [Int64]] = [:]
        try connection.forEachRow(cascadeClosureSQL(), arguments: [.integer(Int64(schema.entityTag(entity.name))), .integer(delete.id)]) { row in
            doomed[model.entities[Int(row.int64(0))].name, default: []].append(row.int64(1))
        }
        func ids(_ entity: String) -> SQLArgument { .ids(doomed[entity] ?? []) }
        let inFirst = Dialect.inList(1), notInSecond = Dialect.notInList(2)

        // deny: a doomed object still related to something that survives.
        for source in model.entities where doomed[source.name] != nil {
            for relationship in source.relationships where relationship.deleteRule == .deny {
                let join = schema.join(for: relationship)
                let sql = """
                    SELECT t.\(quoted(join.sourceColumn)) FROM \(quoted(join.table)) AS t \
                    WHERE t.\(quoted(join.sourceColumn)) \(inFirst) AND \(join.nonNullCondition(alias: "t")) \
                    AND t.\(quoted(join.destinationColumn)) \(notInSecond) LIMIT 1
                    """
                if let blocked = try connection.int64(sql, arguments: [ids(source.name), ids(relationship.destination)]) {
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
                    let survivors = try connection.int64s(
                        "SELECT \"_id\" FROM \(quoted(table)) WHERE \(column) \(inFirst) AND \"_id\" \(notInSecond)",
                        arguments: [ids(foreignKey.referencedEntity), ids(table)])
                    if !survivors.isEmpty {
                        if foreignKey.isRequired {
                            throw StoreError.requiredRelationship(entity: table, relationship: foreignKey.relationship ?? foreignKey.column)
                        }
                        let position = foreignKey.positionColumn.map { ", \(quoted($0)) = NULL" } ?? ""
                        try connection.perform(
                            "UPDATE \(quoted(table)) SET \(column) = NULL\(position) WHERE \"_id\" \(Dialect.among(1))", arguments: [.ids(survivors)])
                        touched.insert(table, contentsOf: survivors)
                    }
                }
                if foreignKey.inverseRelationship != nil, doomed[table] != nil {
                    let listed = try connection.int64s(
                        """
                        SELECT DISTINCT \(column) FROM \(quoted(table)) WHERE "_id" \(inFirst) \
                        AND \(column) IS NOT NULL AND \(column) \(notInSecond)
                        """, arguments: [ids(table), ids(foreignKey.referencedEntity)])
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
                let listed = try connection.int64s(
                    "SELECT DISTINCT \(side.other) FROM \(table) WHERE \(side.own) \(inFirst) AND \(side.other) \(notInSecond)",
                    arguments: [ids(side.ownEntity), ids(side.otherEntity)])
                touched.insert(side.otherEntity, contentsOf: listed)
            }
        }

        var counts: [String: Int] = [:]
        for doomedEntity in model.entities where doomed[doomedEntity.name] != nil {
            let binary = schema.binaryAttributes(of: doomedEntity.name)
            if !binary.isEmpty {
                touched.droppedBlobs.formUnion(try blobKeys(entity: doomedEntity.name, columns: binary, ids: doomed[doomedEntity.name] ?? []))
            }
            let deleted = try connection.perform(
                "DELETE FROM \(quoted(doomedEntity.name)) WHERE \"_id\" \(inFirst)", arguments: [ids(doomedEntity.name)])
            if deleted > 0 { counts[doomedEntity.name] = deleted }
        }
        // A deleted clone's lineage goes with it (docs/architecture.md#lineage); a source's stays.
        try forgetLineage(of: doomed)
        return counts
    }

    /// The doomed set: the object, and through every `cascade` relationship whatever it reaches.
    private func cascadeClosureSQL() -> String {
        var edges: [SQLClosureEdge] = []
        for source in model.entities {
            for relationship in source.relationships where relationship.deleteRule == .cascade {
                let join = schema.join(for: relationship)
                edges.append(
                    SQLClosureEdge(
                        entity: schema.entityTag(relationship.destination), id: "t.\(quoted(join.destinationColumn))",
                        table: quoted(join.table),
                        condition: "c.ent = \(schema.entityTag(source.name)) AND t.\(quoted(join.sourceColumn)) = c.id AND \(join.nonNullCondition(alias: "t"))"
                    ))
            }
        }
        return Dialect.closure(edges: edges)
    }
}
