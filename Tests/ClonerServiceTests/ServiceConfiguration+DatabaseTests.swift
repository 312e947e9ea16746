@testable import ClonerService
import ClonerStore
import Foundation
import Testing

/// `database` takes a SQLite path or a libpq URI; `databasePoolSize` bounds the PostgreSQL pool;
/// a URI's password is never echoed in a configuration error.
@Suite struct ServiceConfigurationDatabaseTests {
    let missing = "/nonexistent/cloner.json"

    @Test func aURIReachesTheStoreLocationAndThePoolSizeItsLayers() throws {
        let uri = "postgresql://cloner:pw@/cloner?host=/run/postgresql"
        let config = try ServiceConfiguration.load(
            environment: ["CLONER_DATABASE": uri, "CLONER_DATABASE_POOL_SIZE": "24"], defaultSettingsFile: missing)
        #expect(config.storeLocation == .postgreSQL(uri: uri))
        #expect(config.storeLocation.description == "postgresql://cloner:***@/cloner?host=/run/postgresql")
        #expect(config.databasePoolSize == 24)
        #expect(try ServiceConfiguration.load(environment: [:], defaultSettingsFile: missing).databasePoolSize == 10)
        let flagged = try ServiceConfiguration.load(
            environment: ["CLONER_DATABASE": uri],
            overrides: .init(databasePath: "flag.sqlite"), defaultSettingsFile: missing)
        #expect(flagged.storeLocation == .sqlite(path: "flag.sqlite"))
    }

    @Test func aBadPoolSizeNamesTheVariable() {
        #expect(throws: ConfigurationError(source: "CLONER_DATABASE_POOL_SIZE", value: "0", message: "expected a connection count 1–1000")) {
            try ServiceConfiguration.load(environment: ["CLONER_DATABASE_POOL_SIZE": "0"], defaultSettingsFile: missing)
        }
    }

    @Test func aRefusedURIIsEchoedWithoutItsPassword() {
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(environment: ["CLONER_DATABASE": "postgres://u:hunter2@db/x\u{0}"], defaultSettingsFile: missing)
        }
        #expect(error?.source == "CLONER_DATABASE")
        #expect(!(error?.description.contains("hunter2") ?? true))
        #expect(error?.description.contains("u:***@db") == true)
    }
}
