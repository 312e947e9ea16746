import ClonerModel
import Foundation

extension SQLiteStoreContext {
    /// Deletes one object and applies the delete rules set-wise: the cascade closure is found by
    /// one recursive query (any depth, cycles included), `deny` is checked over the whole closure,
    /// and references from surviving objects are cleared with one UPDATE per reference column.
    ///
    /// `noAction` leaves the destinations alone, but a reference column still cannot point at a
    /// row that no longer exists, so the survivors' stored reference to the deleted object is
    /// cleared like `nullify` (Core Data would leave it dangling; SQLite's foreign keys forbid it).
    func deleteObject(_ delete: ChangeSet.Delete, touched: inout TouchedObjects) throws -> [String: Int] {
        let entity = try deletable(delete)

        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \"_doomed\" (ent INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (ent, id)) WITHOUT ROWID")
        try connection.execute("DELETE FROM temp.\"_doomed\"")
        try connection.execute(cascadeClosureSQL(), [.integer(Int64(schema.entityTag(entity.name))), .integer(delete.id)])

        // deny: a doomed object still related to something that survives.
        for source in model.entities {
            let sourceTag = schema.entityTag(source.name)
            for relationship in source.relationships where relationship.deleteRule == .deny {
                let join = schema.join(for: relationship)
                let destinationTag = schema.entityTag(relationship.destination)
                let sql = """
                    SELECT d.id FROM temp."_doomed" d JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = d.id
                    WHERE d.ent = \(sourceTag) AND \(join.nonNullCondition(alias: "t"))
                    AND NOT EXISTS (SELECT 1 FROM temp."_doomed" x WHERE x.ent = \(destinationTag) AND x.id = t.\(quoted(join.destinationColumn)))
                    LIMIT 1
                    """
                if let blocked = try connection.scalar(sql)?.int64 {
                    throw StoreError.deleteDenied(entity: source.name, id: blocked, relationship: relationship.name)
                }
            }
        }

        // Survivors that point at doomed objects lose the reference; survivors listed by a doomed
        // object's reference column see their inverse list change.
        for (table, foreignKeys) in schema.foreignKeys.sorted(by: { $0.key < $1.key }) {
            let tableTag = schema.entityTag(table)
            for foreignKey in foreignKeys {
                let column = quoted(foreignKey.column)
                let referencedTag = schema.entityTag(foreignKey.referencedEntity)
                let pointsAtDoomed =
                    "\(column) IN (SELECT id FROM temp.\"_doomed\" WHERE ent = \(referencedTag)) AND \"_id\" NOT IN (SELECT id FROM temp.\"_doomed\" WHERE ent = \(tableTag))"
                var survivors: [Int64] = []
                try connection.forEachRow("SELECT \"_id\" FROM \(quoted(table)) WHERE \(pointsAtDoomed)") { survivors.append($0.int64(0)) }
                if !survivors.isEmpty {
                    if foreignKey.isRequired {
                        throw StoreError.requiredRelationship(entity: table, relationship: foreignKey.relationship ?? foreignKey.column)
                    }
                    let position = foreignKey.positionColumn.map { ", \(quoted($0)) = NULL" } ?? ""
                    try connection.execute("UPDATE \(quoted(table)) SET \(column) = NULL\(position) WHERE \(pointsAtDoomed)")
                    touched.insert(table, contentsOf: survivors)
                }
                if foreignKey.inverseRelationship != nil {
                    var listed: [Int64] = []
                    try connection.forEachRow(
                        """
                        SELECT DISTINCT \(column) FROM \(quoted(table)) WHERE "_id" IN (SELECT id FROM temp."_doomed" WHERE ent = \(tableTag))
                        AND \(column) IS NOT NULL AND \(column) NOT IN (SELECT id FROM temp."_doomed" WHERE ent = \(referencedTag))
                        """
                    ) { listed.append($0.int64(0)) }
                    touched.insert(foreignKey.referencedEntity, contentsOf: listed)
                }
            }
        }
        for joinTable in schema.joinTables {
            let sourceTag = schema.entityTag(joinTable.sourceEntity)
            let destinationTag = schema.entityTag(joinTable.destinationEntity)
            let table = quoted(joinTable.name)
            let sides: [(own: String, other: String, ownTag: Int, otherTag: Int, otherEntity: String, otherHasList: Bool)] = [
                ("src", "dst", sourceTag, destinationTag, joinTable.destinationEntity, joinTable.isManyToMany),
                ("dst", "src", destinationTag, sourceTag, joinTable.sourceEntity, true),
            ]
            for side in sides where side.otherHasList {
                var listed: [Int64] = []
                try connection.forEachRow(
                    """
                    SELECT DISTINCT \(side.other) FROM \(table) WHERE \(side.own) IN (SELECT id FROM temp."_doomed" WHERE ent = \(side.ownTag))
                    AND \(side.other) NOT IN (SELECT id FROM temp."_doomed" WHERE ent = \(side.otherTag))
                    """
                ) { listed.append($0.int64(0)) }
                touched.insert(side.otherEntity, contentsOf: listed)
            }
        }

        var counts: [String: Int] = [:]
        for doomedEntity in model.entities {
            let tag = schema.entityTag(doomedEntity.name)
            let binary = schema.binaryAttributes(of: doomedEntity.name)
            if !binary.isEmpty {
                touched.droppedBlobs.formUnion(
                    try blobKeys(
                        entity: doomedEntity.name, columns: binary,
                        where: "\"_id\" IN (SELECT id FROM temp.\"_doomed\" WHERE ent = \(tag))"))
            }
            try connection.execute("DELETE FROM \(quoted(doomedEntity.name)) WHERE \"_id\" IN (SELECT id FROM temp.\"_doomed\" WHERE ent = \(tag))")
            if connection.changes > 0 { counts[doomedEntity.name] = connection.changes }
        }
        return counts
    }

    /// The doomed set: the object, and through every `cascade` relationship whatever it reaches.
    /// One recursive statement; `UNION` drops repeats, so cycles end.
    private func cascadeClosureSQL() -> String {
        var recursive: [String] = []
        for source in model.entities {
            for relationship in source.relationships where relationship.deleteRule == .cascade {
                let join = schema.join(for: relationship)
                recursive.append(
                    """
                    SELECT \(schema.entityTag(relationship.destination)), t.\(quoted(join.destinationColumn))
                    FROM closure c JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = c.id
                    WHERE c.ent = \(schema.entityTag(source.name)) AND \(join.nonNullCondition(alias: "t"))
                    """)
            }
        }
        let body = (["SELECT ?1, ?2"] + recursive).joined(separator: "\nUNION\n")
        return "INSERT INTO temp.\"_doomed\" (ent, id) WITH RECURSIVE closure(ent, id) AS (\(body)) SELECT ent, id FROM closure"
    }
}
