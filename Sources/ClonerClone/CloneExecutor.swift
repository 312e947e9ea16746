import ClonerModel
import ClonerStore
import Foundation

/// Runs a `ClonePlan` inside the caller's write transaction (`IncrementalStore.write`), so a
/// failure anywhere — a unique conflict, a full disk, a killed process — leaves nothing behind.
public struct CloneExecutor {
    public let plan: ClonePlan

    public init(plan: ClonePlan) { self.plan = plan }

    public func run(in context: StoreContext, now: Date = Date(), progress: CloneProgress = CloneProgress()) throws -> CloneResult {
        let connection = context.connection
        let request = plan.request
        let schema = context.schema

        guard try connection.scalar("SELECT 1 FROM \(quoted(request.entity)) WHERE \"_id\" = ?", [.integer(request.id)]) != nil else {
            throw CloneError.rootNotFound(entity: request.entity, id: request.id)
        }
        for reference in plan.setReferences {
            guard try connection.scalar("SELECT 1 FROM \(quoted(reference.destination)) WHERE \"_id\" = ?", [.integer(reference.id)]) != nil else {
                throw CloneError.invalidRequest(field: "set.\(reference.relationship)", message: "no \(reference.destination) with _id \(reference.id)")
            }
        }

        for (name, ids) in request.setLinks.sorted(by: { $0.key < $1.key }) where !ids.isEmpty {
            let destination = schema.model.entity(named: request.entity)!.relationship(named: name)!.destination
            let found = try connection.scalar("SELECT count(*) FROM \(quoted(destination)) WHERE \"_id\" IN (SELECT value FROM json_each(?))",
                                              [.text("[" + ids.map(String.init).joined(separator: ",") + "]")])?.int64 ?? 0
            if found != ids.count {
                throw CloneError.invalidRequest(field: "set.\(name)", message: "lists an _id that is not a \(destination)")
            }
        }

        try prepareTemporaryTables(connection)
        defer { try? clearTemporaryTables(connection) }

        var parameters = plan.setParameters
        parameters[":rootTag"] = .integer(Int64(plan.rootTag))
        parameters[":root"] = .integer(request.id)
        parameters[":now"] = AttributeValue.date(now).sqlValue

        try connection.cachedStatement(plan.walk).execute(named: parameters)

        var counts: [Int: Int] = [:]
        try connection.forEachRow("SELECT ent, count(DISTINCT id) FROM \(ClonePlan.walkTable) GROUP BY ent") { counts[Int($0.int64(0))] = Int($0.int64(1)) }
        let total = counts.values.reduce(0, +)
        guard total <= request.maximumObjects else { throw CloneError.tooLarge(objects: total, limit: request.maximumObjects) }
        progress.setPlanned(total)

        let steps = plan.entitySteps.filter { (counts[$0.tag] ?? 0) > 0 }
        for step in steps {
            var stepParameters = parameters
            stepParameters[":base"] = try connection.cachedStatement(step.nextIDQuery).scalar() ?? .integer(0)
            try connection.cachedStatement(step.mapFill).execute(named: stepParameters)
        }
        try connection.execute("""
            UPDATE \(ClonePlan.mapTable) SET pnew = (SELECT p.new FROM \(ClonePlan.mapTable) p WHERE p.ent = \(ClonePlan.mapTable).pent AND p.old = \(ClonePlan.mapTable).pold) \
            WHERE pold IS NOT NULL
            """)

        for query in plan.linkedQueries { try connection.cachedStatement(query).execute(named: parameters) }
        // Rule 8: what `set` names is linked as given — the original, even when the walk also
        // copies it another way — so it counts in `linked` like any other shared destination.
        for reference in plan.setReferences {
            let tag = schema.entityTag(reference.destination)
            let hasInverse = schema.model.entity(named: request.entity)?.relationship(named: reference.relationship)?.hasInverse ?? false
            try connection.execute("""
                INSERT INTO \(ClonePlan.linkedTable) (ent, id, bump) SELECT ?1, ?2, ?3 WHERE true \
                ON CONFLICT (ent, id) DO UPDATE SET bump = max(bump, excluded.bump)
                """, [.integer(Int64(tag)), .integer(reference.id), .integer(hasInverse ? 1 : 0)])
        }
        for (name, ids) in request.setLinks.sorted(by: { $0.key < $1.key }) {
            let relationship = schema.model.entity(named: request.entity)!.relationship(named: name)!
            let tag = schema.entityTag(relationship.destination)
            try connection.execute("""
                INSERT INTO \(ClonePlan.linkedTable) (ent, id, bump) SELECT ?1, value, 0 FROM json_each(?2) WHERE true \
                ON CONFLICT (ent, id) DO NOTHING
                """, [.integer(Int64(tag)), .text("[" + ids.map(String.init).joined(separator: ",") + "]")])
        }
        var linkedCounts: [Int: Int] = [:]
        try connection.forEachRow("SELECT ent, count(*) FROM \(ClonePlan.linkedTable) GROUP BY ent") { linkedCounts[Int($0.int64(0))] = Int($0.int64(1)) }

        let cloneID = try connection.scalar("SELECT new FROM \(ClonePlan.mapTable) WHERE ent = ? AND old = ?",
                                            [.integer(Int64(plan.rootTag)), .integer(request.id)])?.int64 ?? 0

        if !request.dryRun {
            do {
                try write(steps: steps, counts: counts, total: total, linkedCounts: linkedCounts,
                          parameters: parameters, connection: connection, schema: schema, progress: progress)
                if !request.setLinks.isEmpty {
                    // The store's own relationship edit keeps inverses, positions and versions right.
                    let edits = request.setLinks.mapValues { ChangeSet.RelationshipEdit.toMany($0.map { .existing($0) }) }
                    _ = try context.save(ChangeSet(updates: [ChangeSet.Update(entity: request.entity, id: cloneID, relationships: edits)]))
                }
            } catch {
                switch StoreContext.translate(error, schema: schema) {
                case StoreError.uniqueViolation(let entity, let attribute):
                    throw CloneError.conflict(entity: entity, attribute: attribute)
                case StoreError.uniqueTogetherViolation(let entity, let attributes):
                    throw CloneError.conflictTogether(entity: entity, attributes: attributes)
                default:
                    break
                }
                throw error
            }
        }

        var ids: [String: [Int64: Int64]]?
        if request.returnIDs {
            var map: [String: [Int64: Int64]] = [:]
            try connection.forEachRow("SELECT ent, old, new FROM \(ClonePlan.mapTable)") { row in
                map[schema.model.entities[Int(row.int64(0))].name, default: [:]][row.int64(1)] = row.int64(2)
            }
            ids = map
        }

        let name = { (tag: Int) in schema.model.entities[tag].name }
        return CloneResult(
            source: .init(entity: request.entity, id: request.id),
            clone: .init(entity: request.entity, id: cloneID),
            created: Dictionary(uniqueKeysWithValues: counts.map { (name($0.key), $0.value) }),
            linked: Dictionary(uniqueKeysWithValues: linkedCounts.map { (name($0.key), $0.value) }),
            ids: ids,
            dryRun: request.dryRun)
    }

    private func write(steps: [ClonePlan.EntityStep], counts: [Int: Int], total: Int, linkedCounts: [Int: Int],
                       parameters: [String: SQLValue], connection: SQLiteConnection, schema: StoreSchema,
                       progress: CloneProgress) throws(SQLiteError) {
        for step in steps {
            for insert in step.inserts {
                try connection.cachedStatement(insert).execute(named: parameters)
            }
            progress.addWritten(counts[step.tag] ?? 0)
        }
        for insert in plan.joinInserts {
            try connection.cachedStatement(insert).execute(named: parameters)
        }
        for follow in plan.follows {
            try connection.cachedStatement(follow.update).execute(named: parameters)
            for statement in follow.propagation {
                try connection.cachedStatement(statement).execute(named: parameters)
            }
        }
        for tag in linkedCounts.keys.sorted() {
            let entity = schema.model.entities[tag].name
            try connection.execute("""
                UPDATE \(quoted(entity)) SET "_version" = "_version" + 1 \
                WHERE "_id" IN (SELECT id FROM \(ClonePlan.linkedTable) WHERE ent = ? AND bump = 1)
                """, [.integer(Int64(tag))])
        }
    }

    private func prepareTemporaryTables(_ connection: SQLiteConnection) throws {
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS "_clone_walk" (seq INTEGER PRIMARY KEY, ent INTEGER NOT NULL, id INTEGER NOT NULL, via INTEGER NOT NULL, pent INTEGER, pid INTEGER);
            CREATE INDEX IF NOT EXISTS temp."_clone_walk_ent" ON "_clone_walk" (ent, id);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_map" (ent INTEGER NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, pent INTEGER, pold INTEGER, pnew INTEGER, PRIMARY KEY (ent, old)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS temp."_clone_map_new" ON "_clone_map" (ent, new, pent, pnew);
            CREATE INDEX IF NOT EXISTS temp."_clone_map_parent" ON "_clone_map" (ent, pent, pnew, new);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_chain" (new INTEGER PRIMARY KEY, value);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_linked" (ent INTEGER NOT NULL, id INTEGER NOT NULL, bump INTEGER NOT NULL, PRIMARY KEY (ent, id)) WITHOUT ROWID;
            """)
        try clearTemporaryTables(connection)
    }

    private func clearTemporaryTables(_ connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM temp.\"_clone_walk\"; DELETE FROM temp.\"_clone_map\"; DELETE FROM temp.\"_clone_linked\"; DELETE FROM temp.\"_clone_chain\";")
    }
}
