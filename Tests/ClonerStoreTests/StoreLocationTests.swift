import ClonerModel
import ClonerStore
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
        #expect(StoreLocation("postgres://cloner:s3cr%40t@db.internal:5432/cloner?sslmode=require").description
            == "postgres://cloner:***@db.internal:5432/cloner?sslmode=require")
        #expect(StoreLocation("postgresql://cloner@db/cloner").description == "postgresql://cloner@db/cloner")
        #expect(StoreLocation("postgresql://db/cloner").description == "postgresql://db/cloner")
        #expect(StoreLocation("postgresql://db/cloner?password=pw&sslmode=require").description == "postgresql://db/cloner?password=***&sslmode=require")
        #expect(StoreLocation("data/cloner.sqlite").description == "data/cloner.sqlite")
    }

    @Test func aPostgreSQLLocationIsRefusedClearlyInThisBuild() {
        let error = #expect(throws: StoreError.self) {
            try IncrementalStore(location: StoreLocation("postgres://cloner:pw@db/cloner"), model: StoreFixtures.notesModel())
        }
        guard case let .backendUnavailable(location, reason)? = error else {
            Issue.record("expected backendUnavailable, got \(String(describing: error))")
            return
        }
        #expect(reason == "PostgreSQL store not available in this build")
        #expect(location == "postgres://cloner:***@db/cloner")
        #expect(!(error?.description.contains("pw") ?? true))
    }

    @Test func aPathOpensASQLiteStore() throws {
        let directory = TemporaryDirectory()
        let store = try IncrementalStore(location: StoreLocation(directory.path("store.sqlite")), model: StoreFixtures.notesModel())
        #expect(store.location == .sqlite(path: directory.path("store.sqlite")))
        #expect(!store.allowsConcurrentWrites)
        #expect(store.isWritable())
    }
}
