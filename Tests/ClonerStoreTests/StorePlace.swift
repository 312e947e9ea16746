import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A place for a store on one backend, of its own: a temporary SQLite file, or a fresh database
/// in the PostgreSQL test cluster. `open` opens the real `IncrementalStore` there, as often as a
/// test likes (a restart, a second replica, a changed model).
final class StorePlace {
    let kind: StoreBackendKind
    let location: StoreLocation
    /// The PostgreSQL database, for tests that look at it directly.
    let database: PostgreSQLTestDatabase?
    private let directory: TemporaryDirectory?

    init(_ kind: StoreBackendKind, file: String = "store.sqlite") throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let directory = try TemporaryDirectory()
            self.directory = directory
            database = nil
            location = .sqlite(path: directory.path(file))
        case .postgreSQL:
            let database = try PostgreSQLTestCluster.shared.createDatabase()
            self.database = database
            directory = nil
            location = .postgreSQL(uri: database.uri)
        }
    }

    func open(model: DataModel = StoreFixtures.notesModel(), writerWait: Duration = .seconds(30)) throws -> IncrementalStore {
        try withExtendedLifetime(self) {
            try IncrementalStore(location: location, model: model, writerWait: writerWait, maximumConnections: 4)
        }
    }
}

extension IncrementalStore {
    @discardableResult
    func save(_ changes: ChangeSet) throws -> SaveResult {
        try write { try $0.save(changes) }
    }

    func object(_ entity: String, _ id: Int64) throws -> StoredObject? {
        try read { try $0.fetchObject(entity: entity, id: id) }
    }
}

extension StoreContext {
    /// The first column of `sql`'s rows as text, run on the backend's own connection — for tests
    /// that check the database itself. On PostgreSQL, cast non-text columns with `::text`.
    func rawTexts(_ sql: String) throws -> [String?] {
        var texts: [String?] = []
        if let context = self as? PostgreSQLStoreContext {
            try context.connection.query(sql).forEachRow { texts.append($0.optionalString(0)) }
        } else {
            try sqliteConnection.forEachRow(sql) { texts.append($0.isNull(0) ? nil : $0.string(0)) }
        }
        return texts
    }
}
