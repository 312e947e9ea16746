import ClonerModel
import Foundation

extension PostgreSQLStore {
    /// Brings the database to the model in one transaction under a transaction-level advisory
    /// lock (`pg_advisory_xact_lock`): creates the schema in an empty database, or checks the
    /// database is a Cloner store (the same metadata keys as the SQLite store's) and migrates it.
    /// PostgreSQL's DDL is transactional, so a refused or failed migration leaves nothing behind,
    /// and a replica that waited on the lock sees the finished result. Returns the store's UUID
    /// and what was done.
    static func prepare(
        connection: PostgreSQLConnection, layout: PostgreSQLSchema,
        log: (String) -> Void = { _ in }
    ) throws -> (uuid: String, preparation: StorePreparation) {
        let place = connection.redactedURI
        let snapshot = SchemaSnapshot(model: layout.model)
        return try connection.transaction(.readCommitted) {
            try connection.query(
                "SELECT pg_advisory_xact_lock($1)",
                [.int8(PostgreSQLConnection.advisoryLockKey(preparationLockName))])
            let tables = try tableNames(connection)
            let uuid: String
            var preparation = StorePreparation.created
            if !tables.contains(PostgreSQLSchema.metadataTable) {
                guard tables.isEmpty else {
                    throw StoreError.incompatibleStore(
                        path: place,
                        reason:
                            "the database holds tables (\(tables.sorted().prefix(5).joined(separator: ", "))) but no Cloner metadata; refusing to write into another application's database"
                    )
                }
                uuid = UUID().uuidString.lowercased()
                try connection.execute(PostgreSQLSchema.metadataCreateStatement)
                for statement in layout.createStatements() { try connection.execute(statement) }
                try writeMetadata(connection, StoreMetadata.created(uuid: uuid, snapshot: snapshot))
                try PostgreSQLStoreContext(connection: connection, layout: layout).storeDefaultBlobs()
            } else {
                let metadata = try readMetadata(connection)
                let (stored, old, fingerprint) = try StoreMetadata.read(metadata, place: place)
                uuid = stored
                preparation = .unchanged
                if StoreMetadata.needsBlobMigration(metadata) {
                    try migrateToBlobs(connection: connection, model: old.makeModel(), log: log)
                    try writeMetadata(connection, StoreMetadata.blobsMigrated)
                    log("binary values now stored once per content (store format \(IncrementalStore.formatVersion))")
                }
                // Before the schema steps: a new binary attribute's default is written by its key.
                try PostgreSQLStoreContext(connection: connection, layout: layout).storeDefaultBlobs()
                if fingerprint != snapshot.fingerprint || old != snapshot {
                    let steps = try migrate(connection: connection, from: old, to: snapshot, model: layout.model)
                    preparation = .migrated(
                        fromFingerprint: fingerprint ?? old.fingerprint, toFingerprint: snapshot.fingerprint,
                        changes: steps.map(\.logDescription))
                }
            }
            if try !serviceTablesAreCurrent(connection) {
                for statement in PostgreSQLSchema.serviceCreateStatements { try connection.execute(statement) }
            }
            return (uuid, preparation)
        }
    }

    /// Whether the idempotency and job tables already have every column and index this version
    /// needs. `ALTER TABLE … ADD COLUMN IF NOT EXISTS` and `CREATE INDEX IF NOT EXISTS` lock the
    /// table (ACCESS EXCLUSIVE, SHARE) before they find there is nothing to do, so a replica
    /// starting beside live ones would stall their clones and lease scans — and deadlock with a
    /// scan that holds the other table (seen: two replicas started together, one refused to
    /// start). A catalog read takes no table lock.
    private static func serviceTablesAreCurrent(_ connection: PostgreSQLConnection) throws -> Bool {
        let columns = PostgreSQLSchema.serviceColumns
        let row = try connection.query(
            """
            SELECT (SELECT count(*) FROM information_schema.columns c
                      JOIN unnest($1::text[], $2::text[]) AS wanted(table_name, column_name)
                        ON c.table_name = wanted.table_name AND c.column_name = wanted.column_name
                     WHERE c.table_schema = current_schema()),
                   (SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($3::text[]))
            """,
            [
                .textArray(columns.map(\.table)), .textArray(columns.map(\.column)),
                .textArray(PostgreSQLSchema.serviceIndexes),
            ])[0]
        return row.int64(0) == Int64(columns.count) && row.int64(1) == Int64(PostgreSQLSchema.serviceIndexes.count)
    }

    /// Tables, views and the like in the schema the store's tables are created in.
    /// The tables and views of the current schema, less those an extension owns: a formation's
    /// `pg_autoctl create postgres` and many managed services install `pg_stat_statements` in
    /// every database, and its views belong to the extension (`pg_depend`, deptype `e`), not to
    /// another application whose data Cloner must not write beside.
    private static func tableNames(_ connection: PostgreSQLConnection) throws -> Set<String> {
        var names: Set<String> = []
        try connection.query(
            """
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
            AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
            """
        ).forEachRow { names.insert($0.string(0)) }
        return names
    }

    private static func readMetadata(_ connection: PostgreSQLConnection) throws -> [String: String] {
        var metadata: [String: String] = [:]
        try connection.query("SELECT key, value FROM \(quoted(PostgreSQLSchema.metadataTable))").forEachRow {
            metadata[$0.string(0)] = $0.string(1)
        }
        return metadata
    }

    private static func writeMetadata(_ connection: PostgreSQLConnection, _ values: [String: String]) throws {
        let pairs = values.sorted { $0.key < $1.key }
        try connection.query(
            """
            INSERT INTO \(quoted(PostgreSQLSchema.metadataTable)) (key, value) SELECT * FROM unnest($1::text[], $2::text[])
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
            """, [.textArray(pairs.map(\.key)), .textArray(pairs.map(\.value))])
    }

    private static func migrate(connection: PostgreSQLConnection, from old: SchemaSnapshot, to new: SchemaSnapshot, model: DataModel) throws -> [SchemaMigrator
        .Step]
    {
        let steps = try PostgreSQLSchemaMigrator(old: old, new: model).plan()
        for step in steps {
            switch step {
            case .sql(let sql):
                try connection.execute(sql)
            case let .requireNoNulls(entity, column):
                let count = try connection.query("SELECT count(*) FROM \(quoted(entity)) WHERE \(quoted(column)) IS NULL")[0].int64(0)
                if count > 0 {
                    throw StoreError.migrationRefused(reasons: [
                        "\(entity).\(column): made required, but \(count) existing rows have no value; give it a default or fill them first"
                    ])
                }
            case let .createUniqueIndex(entity, attribute):
                if try failsOnDuplicates(connection, PostgreSQLDialect.uniqueIndexStatement(entity: entity, attribute: attribute)) {
                    throw StoreError.migrationRefused(reasons: ["\(entity).\(attribute): made unique, but existing rows share values"])
                }
            case let .createUniqueTogetherIndex(entity, attributes):
                if try failsOnDuplicates(connection, PostgreSQLDialect.uniqueTogetherIndexStatement(entity: entity, attributes: attributes)) {
                    let names = attributes.map { "\(entity).\($0)" }.joined(separator: ", ")
                    throw StoreError.migrationRefused(reasons: ["\(names): made unique together, but existing rows share values"])
                }
            }
        }
        try writeMetadata(connection, StoreMetadata.migrated(to: new))
        return steps
    }

    /// Runs a CREATE UNIQUE INDEX; true when existing rows already share values (SQLSTATE 23505).
    private static func failsOnDuplicates(_ connection: PostgreSQLConnection, _ sql: String) throws -> Bool {
        do {
            try connection.execute(sql)
            return false
        } catch {
            if error.isUniqueViolation { return true }
            throw error
        }
    }
}
