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
        // The object's version and the cascade closure from it, read together.
        let start: [(SQLRecordReads.Query, [SQLArgument])] = [
            (.init(sql: Self.versionSQL(entity: delete.entity), slot: 0), [.integer(delete.id)]),
            (.init(sql: cascadeClosureSQL(), slot: 1), [.integer(Int64(schema.entityTag(delete.entity))), .integer(delete.id)]),
        ]
        var version: Int64?
        var doomed: [String: [Int64]] = [:]
        try forEachRow(of: start) { index, row in
            if index == 0 { version = row.int64(0) } else { doomed[model.entities[Int(row.int64(0))].name, default: []].append(row.int64(1)) }
        }
        try checkDeletable(delete, version: version)
        func ids(_ entity: String) -> SQLArgument { .ids(doomed[entity] ?? []) }
        let inFirst = Dialect.inList(1)

        // Everything the rules decide on is read first, in one batch: the reads do not depend on
        // one another or on the writes after them (those change only survivors' references).
        let reads = deleteReads(doomed: doomed)
        var found = [[Int64]](repeating: [], count: reads.count)
        try forEachRow(of: reads.enumerated().map { (SQLRecordReads.Query(sql: $1.sql, slot: $0), $1.arguments) }) { index, row in
            if case .blobKeys = reads[index].kind { touched.droppedBlobs.insert(row.data(0)) } else { found[index].append(row.int64(0)) }
        }
        for (read, ids) in zip(reads, found) {
            switch read.kind {
            case .denied(let source, let relationship):
                if let blocked = ids.first { throw StoreError.deleteDenied(entity: source, id: blocked, relationship: relationship) }
            case .referencing(let table, let foreignKey) where !ids.isEmpty:
                // Survivors that point at doomed objects lose the reference.
                if foreignKey.isRequired {
                    throw StoreError.requiredRelationship(entity: table, relationship: foreignKey.relationship ?? foreignKey.column)
                }
                let position = foreignKey.positionColumn.map { ", \(quoted($0)) = NULL" } ?? ""
                try connection.performBeforeNextCommand(
                    "UPDATE \(quoted(table)) SET \(quoted(foreignKey.column)) = NULL\(position) WHERE \"_id\" \(Dialect.among(1))",
                    values: [Connection.value(.ids(ids))])
                touched.insert(table, contentsOf: ids)
            case .referencing: break
            case .listing(let entity):
                // Survivors whose inverse list loses a doomed object.
                touched.insert(entity, contentsOf: ids)
            case .blobKeys: break
            }
        }

        var deletes: [(entity: String, sql: String, values: [Connection.Value])] = []
        for doomedEntity in model.entities where doomed[doomedEntity.name] != nil {
            deletes.append((doomedEntity.name, "DELETE FROM \(quoted(doomedEntity.name)) WHERE \"_id\" \(inFirst)", [Connection.value(ids(doomedEntity.name))]))
        }
        var counts: [String: Int] = [:]
        for (delete, deleted) in zip(deletes, try connection.performInOrder(deletes.map { ($0.sql, $0.values) })) where deleted > 0 {
            counts[delete.entity] = deleted
        }
        // A deleted clone's lineage goes with it (docs/architecture.md#lineage); a source's stays.
        try forgetLineage(of: doomed)
        return counts
    }

    /// The reads of a delete of `doomed`, in the order its rules apply: `deny` over the whole
    /// closure, then per reference column its surviving referrers and the survivors the doomed
    /// rows list, then the join tables' listed survivors, then the blob keys the doomed rows hold.
    /// Entities the closure does not reach read nothing.
    private func deleteReads(doomed: [String: [Int64]]) -> [SQLDeleteRead] {
        func ids(_ entity: String) -> SQLArgument { .ids(doomed[entity] ?? []) }
        let inFirst = Dialect.inList(1), notInSecond = Dialect.notInList(2)
        var reads: [SQLDeleteRead] = []
        for source in model.entities where doomed[source.name] != nil {
            for relationship in source.relationships where relationship.deleteRule == .deny {
                let join = schema.join(for: relationship)
                let sql = """
                    SELECT t.\(quoted(join.sourceColumn)) FROM \(quoted(join.table)) AS t \
                    WHERE t.\(quoted(join.sourceColumn)) \(inFirst) AND \(join.nonNullCondition(alias: "t")) \
                    AND t.\(quoted(join.destinationColumn)) \(notInSecond) LIMIT 1
                    """
                reads.append(
                    .init(
                        kind: .denied(source: source.name, relationship: relationship.name), sql: sql,
                        arguments: [ids(source.name), ids(relationship.destination)]))
            }
        }
        for (table, foreignKeys) in schema.foreignKeys.sorted(by: { $0.key < $1.key }) {
            for foreignKey in foreignKeys {
                let column = quoted(foreignKey.column)
                if doomed[foreignKey.referencedEntity] != nil {
                    reads.append(
                        .init(
                            kind: .referencing(table: table, foreignKey),
                            sql: "SELECT \"_id\" FROM \(quoted(table)) WHERE \(column) \(inFirst) AND \"_id\" \(notInSecond)",
                            arguments: [ids(foreignKey.referencedEntity), ids(table)]))
                }
                if foreignKey.inverseRelationship != nil, doomed[table] != nil {
                    let sql = """
                        SELECT DISTINCT \(column) FROM \(quoted(table)) WHERE "_id" \(inFirst) \
                        AND \(column) IS NOT NULL AND \(column) \(notInSecond)
                        """
                    reads.append(
                        .init(kind: .listing(entity: foreignKey.referencedEntity), sql: sql, arguments: [ids(table), ids(foreignKey.referencedEntity)]))
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
                reads.append(
                    .init(
                        kind: .listing(entity: side.otherEntity),
                        sql: "SELECT DISTINCT \(side.other) FROM \(table) WHERE \(side.own) \(inFirst) AND \(side.other) \(notInSecond)",
                        arguments: [ids(side.ownEntity), ids(side.otherEntity)]))
            }
        }
        for entity in model.entities where doomed[entity.name] != nil {
            for column in schema.binaryAttributes(of: entity.name) {
                reads.append(.init(kind: .blobKeys, sql: Self.blobKeysSQL(entity: entity.name, column: column, match: inFirst), arguments: [ids(entity.name)]))
            }
        }
        return reads
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
