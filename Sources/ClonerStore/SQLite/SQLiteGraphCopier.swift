import ClonerModel
import Foundation

/// Runs a `GraphCopyPlan` as set-based SQL (`SQLiteGraphCopySQL`) inside the caller's write
/// transaction, so a failure anywhere — a unique conflict, a full disk, a killed process — leaves
/// nothing behind. The statements per copy grow with the model, never with the objects.
struct SQLiteGraphCopier {
    let context: SQLiteStoreContext
    let plan: GraphCopyPlan

    private var connection: SQLiteConnection { context.connection }
    private var schema: StoreSchema { context.schema }

    func run(now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        precondition(plan.copies == 1, "copying the root \(plan.copies) times is not supported yet (issue 12 §2)")
        guard let root = schema.model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        let sql = SQLiteGraphCopySQL(plan: plan, schema: schema)

        guard try connection.scalar("SELECT 1 FROM \(quoted(root.name)) WHERE \"_id\" = ?", [.integer(plan.rootID)]) != nil else {
            throw StoreError.notFound(entity: root.name, id: plan.rootID)
        }
        // A to-one the plan sets on the root: checked to exist, and counted as linked.
        var setReferences: [(relationship: RelationshipDescription, id: Int64)] = []
        var parameters: [String: SQLValue] = [:]
        for (name, value) in plan.rootValues.sorted(by: { $0.key < $1.key }) {
            parameters[":set_\(name)"] = value.sqlValue
            if let relationship = root.relationship(named: name), case .integer(let id) = value {
                setReferences.append((relationship, id))
            }
        }
        for reference in setReferences {
            let destination = reference.relationship.destination
            guard try connection.scalar("SELECT 1 FROM \(quoted(destination)) WHERE \"_id\" = ?", [.integer(reference.id)]) != nil else {
                throw StoreError.invalidReference(field: "set.\(reference.relationship.name)", message: "no \(destination) with _id \(reference.id)")
            }
        }
        let rootLinks = plan.rootLinks.sorted(by: { $0.key < $1.key }).map { (relationship: root.relationship(named: $0.key)!, ids: $0.value) }
        for (relationship, ids) in rootLinks where !ids.isEmpty {
            let found = try connection.scalar("SELECT count(*) FROM \(quoted(relationship.destination)) WHERE \"_id\" IN (\(SQLiteStoreContext.idsFromArray))",
                                              [SQLiteStoreContext.idArray(ids)])?.int64 ?? 0
            if found != ids.count {
                throw StoreError.invalidReference(field: "set.\(relationship.name)", message: "lists an _id that is not a \(relationship.destination)")
            }
        }

        try prepareTemporaryTables()
        defer { try? clearTemporaryTables() }

        parameters[":rootTag"] = .integer(Int64(sql.rootTag))
        parameters[":root"] = .integer(plan.rootID)
        parameters[":now"] = AttributeValue.date(now).sqlValue

        try connection.cachedStatement(sql.walk).execute(named: parameters)

        var counts: [Int: Int] = [:]
        try connection.forEachRow("SELECT ent, count(DISTINCT id) FROM \(SQLiteGraphCopySQL.walkTable) GROUP BY ent") { counts[Int($0.int64(0))] = Int($0.int64(1)) }
        let total = counts.values.reduce(0, +)
        guard total <= plan.maximumObjects else { throw StoreError.tooLarge(objects: total, limit: plan.maximumObjects) }
        progress.setPlanned(total)

        let steps = sql.entitySteps.filter { (counts[$0.tag] ?? 0) > 0 }
        for step in steps {
            var stepParameters = parameters
            stepParameters[":base"] = try connection.cachedStatement(step.nextIDQuery).scalar() ?? .integer(0)
            try connection.cachedStatement(step.mapFill).execute(named: stepParameters)
        }
        let map = SQLiteGraphCopySQL.mapTable
        try connection.execute("""
            UPDATE \(map) SET pnew = (SELECT p.new FROM \(map) p WHERE p.ent = \(map).pent AND p.old = \(map).pold) \
            WHERE pold IS NOT NULL
            """)

        for query in sql.linkedQueries { try connection.cachedStatement(query).execute(named: parameters) }
        // Rule 8: what the root's values name is linked as given — the original, even when the walk
        // also copies it another way — so it counts in `linked` like any other shared destination.
        for reference in setReferences {
            let tag = schema.entityTag(reference.relationship.destination)
            try connection.execute("""
                INSERT INTO \(SQLiteGraphCopySQL.linkedTable) (ent, id, bump) SELECT ?1, ?2, ?3 WHERE true \
                ON CONFLICT (ent, id) DO UPDATE SET bump = max(bump, excluded.bump)
                """, [.integer(Int64(tag)), .integer(reference.id), .integer(reference.relationship.hasInverse ? 1 : 0)])
        }
        for (relationship, ids) in rootLinks {
            let tag = schema.entityTag(relationship.destination)
            try connection.execute("""
                INSERT INTO \(SQLiteGraphCopySQL.linkedTable) (ent, id, bump) SELECT ?1, value, 0 FROM json_each(?2) WHERE true \
                ON CONFLICT (ent, id) DO NOTHING
                """, [.integer(Int64(tag)), SQLiteStoreContext.idArray(ids)])
        }
        var linkedCounts: [Int: Int] = [:]
        try connection.forEachRow("SELECT ent, count(*) FROM \(SQLiteGraphCopySQL.linkedTable) GROUP BY ent") { linkedCounts[Int($0.int64(0))] = Int($0.int64(1)) }

        let cloneID = try connection.scalar("SELECT new FROM \(map) WHERE ent = ? AND old = ?",
                                            [.integer(Int64(sql.rootTag)), .integer(plan.rootID)])?.int64 ?? 0

        if !plan.dryRun {
            do {
                try write(sql: sql, steps: steps, counts: counts, linkedCounts: linkedCounts, parameters: parameters, progress: progress)
                if !rootLinks.isEmpty {
                    // The store's own relationship edit keeps inverses, positions and versions right.
                    let edits = plan.rootLinks.mapValues { ChangeSet.RelationshipEdit.toMany($0.map { .existing($0) }) }
                    _ = try context.save(ChangeSet(updates: [ChangeSet.Update(entity: root.name, id: cloneID, relationships: edits)]))
                }
            } catch {
                throw SQLiteStoreContext.translate(error, schema: schema)
            }
        }

        var ids: [[String: [Int64: Int64]]]?
        if plan.returnIDs {
            var byEntity: [String: [Int64: Int64]] = [:]
            try connection.forEachRow("SELECT ent, old, new FROM \(map)") { row in
                byEntity[schema.model.entities[Int(row.int64(0))].name, default: [:]][row.int64(1)] = row.int64(2)
            }
            ids = [byEntity]
        }

        let name = { (tag: Int) in schema.model.entities[tag].name }
        return GraphCopyResult(
            cloneIDs: [cloneID],
            created: Dictionary(uniqueKeysWithValues: counts.map { (name($0.key), $0.value) }),
            linked: Dictionary(uniqueKeysWithValues: linkedCounts.map { (name($0.key), $0.value) }),
            ids: ids)
    }

    private func write(sql: SQLiteGraphCopySQL, steps: [SQLiteGraphCopySQL.EntityStep], counts: [Int: Int], linkedCounts: [Int: Int],
                       parameters: [String: SQLValue], progress: GraphCopyProgress) throws(SQLiteError) {
        for step in steps {
            for insert in step.inserts {
                try connection.cachedStatement(insert).execute(named: parameters)
            }
            progress.addWritten(counts[step.tag] ?? 0)
        }
        for insert in sql.joinInserts {
            try connection.cachedStatement(insert).execute(named: parameters)
        }
        for follow in sql.follows {
            try connection.cachedStatement(follow.update).execute(named: parameters)
            for statement in follow.propagation {
                try connection.cachedStatement(statement).execute(named: parameters)
            }
        }
        for tag in linkedCounts.keys.sorted() {
            let entity = schema.model.entities[tag].name
            try connection.execute("""
                UPDATE \(quoted(entity)) SET "_version" = "_version" + 1 \
                WHERE "_id" IN (SELECT id FROM \(SQLiteGraphCopySQL.linkedTable) WHERE ent = ? AND bump = 1)
                """, [.integer(Int64(tag))])
        }
    }

    private func prepareTemporaryTables() throws {
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS "_clone_walk" (seq INTEGER PRIMARY KEY, ent INTEGER NOT NULL, id INTEGER NOT NULL, via INTEGER NOT NULL, pent INTEGER, pid INTEGER);
            CREATE INDEX IF NOT EXISTS temp."_clone_walk_ent" ON "_clone_walk" (ent, id);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_map" (ent INTEGER NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, pent INTEGER, pold INTEGER, pnew INTEGER, PRIMARY KEY (ent, old)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS temp."_clone_map_new" ON "_clone_map" (ent, new, pent, pnew);
            CREATE INDEX IF NOT EXISTS temp."_clone_map_parent" ON "_clone_map" (ent, pent, pnew, new);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_chain" (new INTEGER PRIMARY KEY, value);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_linked" (ent INTEGER NOT NULL, id INTEGER NOT NULL, bump INTEGER NOT NULL, PRIMARY KEY (ent, id)) WITHOUT ROWID;
            """)
        try clearTemporaryTables()
    }

    private func clearTemporaryTables() throws {
        try connection.execute("DELETE FROM temp.\"_clone_walk\"; DELETE FROM temp.\"_clone_map\"; DELETE FROM temp.\"_clone_linked\"; DELETE FROM temp.\"_clone_chain\";")
    }
}
