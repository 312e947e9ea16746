import ClonerModel
import Foundation

/// The opening sequence, once for every backend: a database without tables is given the model's
/// schema; a Cloner store is checked (format, version), moved to shared blobs if it predates them,
/// and migrated when its recorded schema is not the model's; anything else is refused, so Cloner
/// never writes into another application's database.
extension StoreOpening {
    /// Brings the database on `connection` to `schema`. `place` names it in errors (a path, or a
    /// URI without its password). Returns the store's UUID and what was done.
    static func prepareStore(
        on connection: Connection, place: String, schema: StoreSchema, log: (String) -> Void
    ) throws -> (uuid: String, preparation: StorePreparation) {
        try exclusively(on: connection) {
            let tables = try applicationTableNames(on: connection)
            let opened: (uuid: String, preparation: StorePreparation)
            if tables.contains(StoreSchema.metadataTable) {
                opened = try update(on: connection, place: place, schema: schema, log: log)
            } else {
                guard tables.isEmpty else {
                    throw StoreError.incompatibleStore(
                        path: place,
                        reason:
                            "the \(databaseKind) holds tables (\(tables.sorted().prefix(5).joined(separator: ", "))) but no Cloner metadata; refusing to write into another application's database"
                    )
                }
                opened = (try create(on: connection, schema: schema), .created)
            }
            try prepareIDSpaces(on: connection, model: schema.model)
            try prepareServiceTables(on: connection)
            return opened
        }
    }

    /// Each inheritance hierarchy's shared `_id` space (`SQLDialect.idSpaceStatements`), whether
    /// the store was made, migrated or opened as it was: a store made before hierarchies shared
    /// one, and a migration that formed or grew one, get theirs here.
    private static func prepareIDSpaces(on connection: Connection, model: DataModel) throws {
        var roots: [String] = []
        for case let root? in model.entities.map(\.hierarchy) where !roots.contains(root) { roots.append(root) }
        let statements = roots.flatMap { root in
            Connection.Dialect.idSpaceStatements(hierarchy: root, tables: model.entities.filter { $0.hierarchy == root }.map(\.name))
        }
        guard !statements.isEmpty else { return }
        try atomically(on: connection) { for statement in statements { try execute(statement, on: connection) } }
    }

    private static func create(on connection: Connection, schema: StoreSchema) throws -> String {
        let uuid = UUID().uuidString.lowercased()
        try atomically(on: connection) {
            try execute(Connection.Dialect.metadataTableStatement, on: connection)
            for statement in Connection.Dialect.createStatements(for: schema) { try execute(statement, on: connection) }
            try writeMetadata(StoreMetadata.created(uuid: uuid, snapshot: SchemaSnapshot(model: schema.model)), on: connection)
        }
        try storeDefaultBlobs(schema, connection)
        return uuid
    }

    private static func update(
        on connection: Connection, place: String, schema: StoreSchema, log: (String) -> Void
    ) throws -> (uuid: String, preparation: StorePreparation) {
        let metadata = try readMetadata(on: connection)
        let (uuid, old, fingerprint) = try StoreMetadata.read(metadata, place: place)
        if StoreMetadata.needsBlobMigration(metadata) {
            try migrateToBlobs(connection: connection, model: old.makeModel(), log: log)
            try atomically(on: connection) { try writeMetadata(StoreMetadata.blobsMigrated, on: connection) }
            log("binary values now stored once per content (store format \(IncrementalStore.formatVersion))")
        }
        // Before the schema steps: a new binary attribute's default is written by its key.
        try storeDefaultBlobs(schema, connection)
        let snapshot = SchemaSnapshot(model: schema.model)
        guard fingerprint != snapshot.fingerprint || old != snapshot else { return (uuid, .unchanged) }
        let plan = try migrate(on: connection, from: old, to: snapshot, model: schema.model)
        return (
            uuid,
            .migrated(fromFingerprint: fingerprint ?? old.fingerprint, toFingerprint: snapshot.fingerprint, changes: plan.changes)
        )
    }

    private static func storeDefaultBlobs(_ schema: StoreSchema, _ connection: Connection) throws {
        guard !schema.defaultBlobValues.isEmpty else { return }
        try atomically(on: connection) { try storeDefaultBlobs(schema, on: connection) }
    }

    // MARK: - migration

    /// Plans the steps from `old` to `model` and runs them with the new metadata, as one whole.
    /// What the steps drop is counted first, in the same transaction, so nothing is written
    /// between the count and the drop; every refusal is named at once, and a refused migration
    /// changes nothing. The renames run before the count, which names tables by their new names;
    /// a refusal rolls them back with the rest.
    private static func migrate(
        on connection: Connection, from old: SchemaSnapshot, to new: SchemaSnapshot, model: DataModel
    ) throws -> SchemaMigrationPlan {
        let plan = SchemaMigrator<Connection.Dialect>(old: old, new: model).plan()
        try atomically(on: connection) {
            for step in plan.renames { try run(step, on: connection) }
            var refusals = plan.refusals
            for removal in plan.removals {
                let count = try connection.int64(removal.countStatement, arguments: []) ?? 0
                if count > 0 { refusals.append(removal.refusal(count: count)) }
            }
            guard refusals.isEmpty else { throw StoreError.migrationRefused(reasons: refusals) }
            for step in plan.steps { try run(step, on: connection) }
            try writeMetadata(StoreMetadata.migrated(to: new), on: connection)
        }
        return plan
    }

    private static func run(_ step: SchemaMigrationStep, on connection: Connection) throws {
        switch step {
        case .sql(let sql):
            try execute(sql, on: connection)
        case let .requireNoNulls(entity, column):
            let count = try connection.int64("SELECT count(*) FROM \(quoted(entity)) WHERE \(quoted(column)) IS NULL", arguments: []) ?? 0
            if count > 0 {
                throw StoreError.migrationRefused(reasons: [
                    "\(entity).\(column): made required, but \(count) existing rows have no value; give it a default or fill them first"
                ])
            }
        case let .createUniqueIndex(entity, attribute):
            try createUniqueIndex(
                Connection.Dialect.uniqueIndexStatement(entity: entity, attribute: attribute), on: connection,
                refusal: "\(entity).\(attribute): made unique, but existing rows share values")
        case let .renameLineage(entity, newName):
            guard try applicationTableNames(on: connection).contains(ServiceTables.lineage) else { return }
            let lineage = ServiceTables.quotedLineage, p = Connection.Dialect.parameter
            // Rows of an entity of the new name removed long ago would clash with the renamed ones.
            try connection.perform("DELETE FROM \(lineage) WHERE entity = \(p(1))", arguments: [.text(newName)])
            try connection.perform("UPDATE \(lineage) SET entity = \(p(2)) WHERE entity = \(p(1))", arguments: [.text(entity), .text(newName)])
        case let .requireOneIDSpace(hierarchy, entities):
            let ids = entities.map { "SELECT \"_id\" FROM \(quoted($0))" }.joined(separator: " UNION ALL ")
            let shared = "SELECT count(*) FROM (SELECT \"_id\" FROM (\(ids)) AS i GROUP BY \"_id\" HAVING count(*) > 1) AS d"
            let count = try connection.int64(shared, arguments: []) ?? 0
            if count > 0 {
                throw StoreError.migrationRefused(reasons: [
                    "\(entities.joined(separator: ", ")): now under \(hierarchy), whose objects share one _id space, but \(count) _id\(count == 1 ? " is" : "s are") held by more than one of them; "
                        + "an _id must name one object of a hierarchy: move the objects of all but one into a store of the new model with a graph export and import (new ids), or keep the entities apart"
                ])
            }
        case let .createUniqueTogetherIndex(entity, attributes):
            let names = attributes.map { "\(entity).\($0)" }.joined(separator: ", ")
            try createUniqueIndex(
                Connection.Dialect.uniqueTogetherIndexStatement(entity: entity, attributes: attributes), on: connection,
                refusal: "\(names): made unique together, but existing rows share values")
        }
    }

    /// A unique index over rows that already share values is a refusal, not a database error.
    private static func createUniqueIndex(_ statement: String, on connection: Connection, refusal: String) throws {
        do {
            try execute(statement, on: connection)
        } catch let error where isDuplicateFailure(error) {
            throw StoreError.migrationRefused(reasons: [refusal])
        }
    }

    // MARK: - metadata

    private static func readMetadata(on connection: Connection) throws -> [String: String] {
        var metadata: [String: String] = [:]
        try connection.forEachRow("SELECT key, value FROM \(quoted(StoreSchema.metadataTable))", arguments: []) { row in
            if case .string(let key) = row.attributeValue(0, .string), case .string(let value) = row.attributeValue(1, .string) {
                metadata[key] = value
            }
        }
        return metadata
    }

    private static func writeMetadata(_ values: [String: String], on connection: Connection) throws {
        let statement = """
            INSERT INTO \(quoted(StoreSchema.metadataTable)) (key, value) VALUES (\(Connection.Dialect.parameter(1)), \(Connection.Dialect.parameter(2))) \
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try connection.perform(statement, arguments: [.text(key), .text(value)])
        }
    }
}
