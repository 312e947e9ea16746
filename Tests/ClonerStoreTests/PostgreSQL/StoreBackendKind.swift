import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// The context operations both backends offer, until `StoreContext` is the seam's protocol (then
/// this is `any StoreContext` and `BackendStore` is `IncrementalStore(location:)`).
protocol ContextUnderTest {
    func fetchIDs(_ request: FetchRequest) throws -> [Int64]
    func fetchPositions(_ request: FetchRequest) throws -> [(id: Int64, position: FetchRequest.Position)]
    func fetchObject(entity: String, id: Int64) throws -> StoredObject?
    func fetchObjects(entity: String, ids: [Int64]) throws -> [StoredObject]
    func version(entity: String, id: Int64) throws -> Int64?
    func save(_ changes: ChangeSet) throws -> SaveResult
    func idempotencyRecord(key: String) throws -> IdempotencyRecord?
    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws
    func purgeIdempotencyRecords(olderThan date: Date) throws -> Int
    func saveJob(_ job: JobRecord) throws
    func job(id: String) throws -> JobRecord?
    func failInterruptedJobs(error: Data, at date: Date) throws -> Int
    func purgeJobs(finishedBefore date: Date) throws -> Int
}

extension StoreContext: ContextUnderTest {}
extension PostgreSQLStoreContext: ContextUnderTest {}

/// Which backend a parameterised store test runs on.
enum StoreBackendKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgreSQL

    var testDescription: String { rawValue }

    /// Whether this backend can run here (PostgreSQL needs the test cluster; under CI=true it
    /// runs and fails instead of skipping).
    var isAvailable: Bool { self == .sqlite || PostgreSQLTestCluster.isEnabled }
}

/// A store on one backend, in a place of its own: a temporary SQLite file, or a fresh database
/// in the PostgreSQL test cluster. `reopen` opens the same place again (a restart, a second
/// replica) with a model of its choice.
final class BackendStore {
    let kind: StoreBackendKind
    private let directory = TemporaryDirectory()
    let database: PostgreSQLTestDatabase?
    let sqlite: IncrementalStore?
    let postgreSQL: PostgreSQLStore?

    init(_ kind: StoreBackendKind, model: DataModel = StoreFixtures.notesModel()) throws {
        self.kind = kind
        database = kind == .postgreSQL ? try PostgreSQLTestCluster.shared.createDatabase() : nil
        (sqlite, postgreSQL) = try BackendStore.open(kind, directory: directory, database: database, model: model)
    }

    private init(reopening other: BackendStore, model: DataModel) throws {
        kind = other.kind
        database = other.database
        (sqlite, postgreSQL) = try BackendStore.open(kind, directory: other.directory, database: database, model: model)
        retained = other
    }
    private var retained: BackendStore?

    private static func open(_ kind: StoreBackendKind, directory: TemporaryDirectory, database: PostgreSQLTestDatabase?,
                             model: DataModel) throws -> (IncrementalStore?, PostgreSQLStore?) {
        switch kind {
        case .sqlite: return (try IncrementalStore(path: directory.path("store.sqlite"), model: model), nil)
        case .postgreSQL: return (nil, try PostgreSQLStore(uri: database!.uri, schema: StoreSchema(model: model), maximumConnections: 4))
        }
    }

    func reopen(model: DataModel = StoreFixtures.notesModel()) throws -> BackendStore {
        try BackendStore(reopening: self, model: model)
    }

    var storeUUID: String { sqlite?.storeUUID ?? postgreSQL!.storeUUID }

    func read<T>(_ body: (any ContextUnderTest) throws -> T) throws -> T {
        if let sqlite { return try sqlite.read { try body($0) } }
        return try postgreSQL!.read { try body($0) }
    }

    func write<T>(_ body: (any ContextUnderTest) throws -> T) throws -> T {
        if let sqlite { return try sqlite.write { try body($0) } }
        return try postgreSQL!.write { try body($0) }
    }

    @discardableResult
    func save(_ changes: ChangeSet) throws -> SaveResult {
        try write { try $0.save(changes) }
    }

    func object(_ entity: String, _ id: Int64) throws -> StoredObject? {
        try read { try $0.fetchObject(entity: entity, id: id) }
    }
}
