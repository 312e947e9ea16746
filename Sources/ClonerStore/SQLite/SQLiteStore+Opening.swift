import ClonerModel
import CSQLite
import Foundation

extension SQLiteStore {
    /// Brings a freshly opened file to the model: checks it is a healthy SQLite database in WAL
    /// mode, then creates the schema in a new file, or checks the file is a Cloner store and
    /// migrates it (`prepareStore`). Returns the store's UUID and what was done.
    static func prepare(
        connection: SQLiteConnection, path: String, schema: StoreSchema, log: (String) -> Void
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
        return try prepareStore(on: connection, place: path, schema: schema, log: log)
    }
}

/// SQLite's primitives of the opening sequence: one writer per file, so each step that must be
/// whole is a transaction that takes the file's write lock at once (BEGIN IMMEDIATE).
extension SQLiteStore: StoreOpening {
    static let databaseKind = "file"

    static func exclusively<T>(on connection: SQLiteConnection, _ body: () throws -> T) throws -> T { try body() }

    static func atomically<T>(on connection: SQLiteConnection, _ body: () throws -> T) throws -> T {
        try connection.transaction(.immediate, body)
    }

    /// SQLite's own tables (`sqlite_sequence` of AUTOINCREMENT, `sqlite_stat1`) are left out.
    static func applicationTableNames(on connection: SQLiteConnection) throws -> Set<String> {
        var names: Set<String> = []
        try connection.forEachRow("SELECT name FROM sqlite_master WHERE type = 'table'") { names.insert($0.string(0)) }
        return names.filter { !$0.hasPrefix("sqlite_") }
    }

    static func execute(_ statement: String, on connection: SQLiteConnection) throws { try connection.execute(statement) }

    static func isDuplicateFailure(_ error: any Error) -> Bool { SQLiteResultCode.constraint ~= error }

    static func storeDefaultBlobs(_ schema: StoreSchema, on connection: SQLiteConnection) throws {
        for bytes in schema.defaultBlobValues { _ = try SQLiteStoreContext.storeBlob(bytes, on: connection) }
    }

    static func indexNames(on connection: SQLiteConnection) throws -> Set<String> {
        var names: Set<String> = []
        try connection.forEachRow("SELECT name FROM sqlite_master WHERE type = 'index'") { names.insert($0.string(0)) }
        return names
    }
}
