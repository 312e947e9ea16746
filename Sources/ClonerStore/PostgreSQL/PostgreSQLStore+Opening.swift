import ClonerModel
import Foundation

extension PostgreSQLStore {
    /// Brings the database to the model (`prepareStore`): creates the schema in an empty database,
    /// or checks the database is a Cloner store (the same metadata keys as the SQLite store's) and
    /// migrates it. Returns the store's UUID and what was done.
    static func prepare(
        connection: PostgreSQLConnection, layout: PostgreSQLSchema,
        log: (String) -> Void = { _ in }
    ) throws -> (uuid: String, preparation: StorePreparation) {
        try prepareStore(on: connection, place: connection.redactedURI, schema: layout.schema, log: log)
    }
}

/// PostgreSQL's primitives of the opening sequence: all of it is one transaction under a
/// transaction-level advisory lock (`pg_advisory_xact_lock`). PostgreSQL's DDL is transactional,
/// so a refused or failed migration leaves nothing behind, and a replica that waited on the lock
/// sees the finished result.
extension PostgreSQLStore: StoreOpening {
    static let databaseKind = "database"

    static func exclusively<T>(on connection: PostgreSQLConnection, _ body: () throws -> T) throws -> T {
        try connection.transaction(.readCommitted) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.int8(PostgreSQLConnection.advisoryLockKey(preparationLockName))])
            return try body()
        }
    }

    /// Already inside the preparation's one transaction.
    static func atomically<T>(on connection: PostgreSQLConnection, _ body: () throws -> T) throws -> T { try body() }

    /// The tables and views of the current schema, less those an extension owns: a formation's
    /// `pg_autoctl create postgres` and many managed services install `pg_stat_statements` in
    /// every database, and its views belong to the extension (`pg_depend`, deptype `e`), not to
    /// another application whose data Cloner must not write beside.
    static func applicationTableNames(on connection: PostgreSQLConnection) throws -> Set<String> {
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

    static func execute(_ statement: String, on connection: PostgreSQLConnection) throws { try connection.execute(statement) }

    static func isDuplicateFailure(_ error: any Error) -> Bool { (error as? PostgreSQLError)?.isUniqueViolation == true }

    static func storeDefaultBlobs(_ schema: StoreSchema, on connection: PostgreSQLConnection) throws {
        try PostgreSQLStoreContext(connection: connection, layout: PostgreSQLSchema(schema: schema)).storeDefaultBlobs()
    }

    static func indexNames(on connection: PostgreSQLConnection) throws -> Set<String> {
        var names: Set<String> = []
        try connection.query("SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()").forEachRow { names.insert($0.string(0)) }
        return names
    }
}
