import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// `StoreLocation`: a path or a libpq URI, printable without its password.
@Suite struct StoreLocationTests {
    @Test func postgresURIsAreRecognisedByTheirScheme() {
        #expect(StoreLocation("postgres://u@db/cloner") == .postgreSQL(uri: "postgres://u@db/cloner"))
        #expect(StoreLocation("postgresql://db:5432/cloner") == .postgreSQL(uri: "postgresql://db:5432/cloner"))
        #expect(StoreLocation("PostgreSQL://db/cloner") == .postgreSQL(uri: "PostgreSQL://db/cloner"))
        #expect(StoreLocation("data/cloner.sqlite") == .sqlite(path: "data/cloner.sqlite"))
        #expect(StoreLocation("/var/lib/postgres/cloner.sqlite") == .sqlite(path: "/var/lib/postgres/cloner.sqlite"))
        #expect(StoreLocation(":memory:") == .sqlite(path: ":memory:"))
    }

    @Test func theDescriptionHidesAPassword() {
        #expect(
            StoreLocation("postgres://cloner:s3cr%40t@db.internal:5432/cloner?sslmode=require").description
                == "postgres://cloner:***@db.internal:5432/cloner?sslmode=require")
        #expect(StoreLocation("postgresql://cloner@db/cloner").description == "postgresql://cloner@db/cloner")
        #expect(StoreLocation("postgresql://db/cloner").description == "postgresql://db/cloner")
        #expect(StoreLocation("postgresql://db/cloner?password=pw&sslmode=require").description == "postgresql://db/cloner?password=***&sslmode=require")
        #expect(StoreLocation("data/cloner.sqlite").description == "data/cloner.sqlite")
    }

    /// A server that cannot be reached is an error naming the place — without the password.
    @Test func anUnreachablePostgreSQLServerIsRefusedWithoutItsPassword() throws {
        let directory = try TemporaryDirectory()
        let uri = "postgresql://cloner:s3cret-pw@/cloner?host=\(directory.url.path)&port=1&connect_timeout=2"
        let error = #expect(throws: StoreError.self) {
            try IncrementalStore(location: StoreLocation(uri), model: StoreFixtures.notesModel())
        }
        guard case let .incompatibleStore(location, reason)? = error else {
            Issue.record("expected incompatibleStore, got \(String(describing: error))")
            return
        }
        #expect(location.contains("cloner:***@"))
        #expect(reason.contains("cannot connect"))
        #expect(!"\(error!)".contains("s3cret-pw"))
        #expect(!String(reflecting: error!).contains("s3cret-pw"))
    }

    @Test(.requiresPostgreSQL) func aPostgreSQLURIOpensAPostgreSQLStore() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        let store = try IncrementalStore(location: StoreLocation(database.uri), model: StoreFixtures.notesModel())
        #expect(store.location == .postgreSQL(uri: database.uri))
        #expect(store.allowsConcurrentWrites)
        #expect(store.isWritable())
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) } == [])
    }

    @Test func aPathOpensASQLiteStore() throws {
        let directory = try TemporaryDirectory()
        let store = try IncrementalStore(location: StoreLocation(directory.path("store.sqlite")), model: StoreFixtures.notesModel())
        #expect(store.location == .sqlite(path: directory.path("store.sqlite")))
        #expect(!store.allowsConcurrentWrites)
        #expect(store.isWritable())
    }
}
