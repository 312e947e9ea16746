import ClonerModel
import CSQLite
import Foundation

extension SQLiteStore {
    /// Brings a freshly opened file to the model: creates the schema in a new file, or checks the
    /// file is a healthy Cloner store and migrates it. Returns the store's UUID and what was done.
    static func prepare(
        connection: SQLiteConnection, path: String, model: DataModel, schema: StoreSchema,
        log: (String) -> Void
    ) throws -> (uuid: String, preparation: StorePreparation) {
        do {
            // The first real read is where SQLite notices a file that is not a database.
            let journal = try connection.scalar("PRAGMA journal_mode = WAL")?.string ?? ""
            if path != ":memory:" && journal.lowercased() != "wal" {
                throw StoreError.incompatibleStore(path: path, reason: "cannot switch to WAL journal mode (got \(journal))")
            }
        } catch let error as SQLiteError {
            // A folder the user can't write fails here too (WAL's -shm file): say so rather than
            // blame the file.
            throw StoreError.incompatibleStore(
                path: path,
                reason: (path == ":memory:" ? nil : SQLiteFileAccess.problem(databasePath: path))
                    ?? "not a SQLite database or unreadable (\(error.description))")
        }

        let check = try connection.scalar("PRAGMA quick_check")?.string ?? "no answer"
        guard check == "ok" else {
            throw StoreError.incompatibleStore(path: path, reason: "integrity check failed: \(check)")
        }

        let snapshot = SchemaSnapshot(model: model)
        let tables = try tableNames(connection)
        if !tables.contains(StoreSchema.metadataTable) {
            let userTables = tables.filter { !$0.hasPrefix("sqlite_") }
            guard userTables.isEmpty else {
                throw StoreError.incompatibleStore(
                    path: path,
                    reason:
                        "the file holds tables (\(userTables.sorted().prefix(5).joined(separator: ", "))) but no Cloner metadata; refusing to write into another application's database"
                )
            }
            let uuid = try create(connection: connection, schema: schema, snapshot: snapshot)
            try storeDefaultBlobs(connection, schema)
            try createServiceTables(connection)
            return (uuid, .created)
        }

        let metadata = try readMetadata(connection)
        let (uuid, old, fingerprint) = try StoreMetadata.read(metadata, place: path)
        if StoreMetadata.needsBlobMigration(metadata) {
            try migrateToBlobs(connection: connection, model: old.makeModel(), log: log)
            try connection.transaction(.immediate) { try writeMetadata(connection, StoreMetadata.blobsMigrated) }
            log("binary values now stored once per content (store format \(IncrementalStore.formatVersion))")
        }
        // Before the schema steps: a new binary attribute's default is written by its key.
        try storeDefaultBlobs(connection, schema)
        var preparation = StorePreparation.unchanged
        if fingerprint != snapshot.fingerprint || old != snapshot {
            let steps = try migrate(connection: connection, from: old, to: snapshot, model: model)
            preparation = .migrated(fromFingerprint: fingerprint ?? old.fingerprint, toFingerprint: snapshot.fingerprint, changes: steps.map(\.logDescription))
        }
        try createServiceTables(connection)
        return (uuid, preparation)
    }

    private static func storeDefaultBlobs(_ connection: SQLiteConnection, _ schema: StoreSchema) throws {
        guard !schema.defaultBlobValues.isEmpty else { return }
        try connection.transaction(.immediate) {
            for bytes in schema.defaultBlobValues { _ = try SQLiteStoreContext.storeBlob(bytes, on: connection) }
        }
    }

    private static func createServiceTables(_ connection: SQLiteConnection) throws {
        for statement in ServiceTables.createStatements { try connection.execute(statement) }
        for (table, column, definition) in ServiceTables.addedColumns {
            var exists = false
            try connection.forEachRow("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", [.text(table), .text(column)]) { _ in exists = true }
            if !exists { try connection.execute("ALTER TABLE \"\(table)\" ADD COLUMN \(definition)") }
        }
        for statement in ServiceTables.leaseIndexStatements { try connection.execute(statement) }
    }

    private static func tableNames(_ connection: SQLiteConnection) throws -> Set<String> {
        var names: Set<String> = []
        try connection.forEachRow("SELECT name FROM sqlite_master WHERE type = 'table'") { names.insert($0.string(0)) }
        return names
    }

    private static func readMetadata(_ connection: SQLiteConnection) throws -> [String: String] {
        var metadata: [String: String] = [:]
        try connection.forEachRow("SELECT key, value FROM \(quoted(StoreSchema.metadataTable))") { metadata[$0.string(0)] = $0.string(1) }
        return metadata
    }

    private static func writeMetadata(_ connection: SQLiteConnection, _ values: [String: String]) throws {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try connection.execute("INSERT OR REPLACE INTO \(quoted(StoreSchema.metadataTable)) (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    private static func create(connection: SQLiteConnection, schema: StoreSchema, snapshot: SchemaSnapshot) throws -> String {
        let uuid = UUID().uuidString.lowercased()
        try connection.transaction(.immediate) {
            try connection.execute("CREATE TABLE \(quoted(StoreSchema.metadataTable)) (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            for statement in schema.createStatements() { try connection.execute(statement) }
            try writeMetadata(connection, StoreMetadata.created(uuid: uuid, snapshot: snapshot))
        }
        return uuid
    }

    @discardableResult
    private static func migrate(connection: SQLiteConnection, from old: SchemaSnapshot, to new: SchemaSnapshot, model: DataModel) throws -> [SchemaMigrator
        .Step]
    {
        let steps = try SchemaMigrator(old: old, new: model).plan()
        try connection.transaction(.immediate) {
            for step in steps {
                switch step {
                case .sql(let sql):
                    try connection.execute(sql)
                case let .requireNoNulls(entity, column):
                    let count = try connection.scalar("SELECT count(*) FROM \(quoted(entity)) WHERE \(quoted(column)) IS NULL")?.int64 ?? 0
                    if count > 0 {
                        throw StoreError.migrationRefused(reasons: [
                            "\(entity).\(column): made required, but \(count) existing rows have no value; give it a default or fill them first"
                        ])
                    }
                case let .createUniqueIndex(entity, attribute):
                    do {
                        try connection.execute(SQLiteDialect.uniqueIndexStatement(entity: entity, attribute: attribute))
                    } catch SQLiteResultCode.constraint {
                        throw StoreError.migrationRefused(reasons: ["\(entity).\(attribute): made unique, but existing rows share values"])
                    }
                case let .createUniqueTogetherIndex(entity, attributes):
                    do {
                        try connection.execute(SQLiteDialect.uniqueTogetherIndexStatement(entity: entity, attributes: attributes))
                    } catch SQLiteResultCode.constraint {
                        let names = attributes.map { "\(entity).\($0)" }.joined(separator: ", ")
                        throw StoreError.migrationRefused(reasons: ["\(names): made unique together, but existing rows share values"])
                    }
                }
            }
            try writeMetadata(connection, StoreMetadata.migrated(to: new))
        }
        return steps
    }
}
