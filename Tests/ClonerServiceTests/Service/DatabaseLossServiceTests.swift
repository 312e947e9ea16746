import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A PostgreSQL database that stops taking writes, as a demoted primary does in a failover, and
/// takes them again: the answers, the probe, the log and the metrics say so, and the service
/// needs no restart. The database is made read-only for new sessions and its open sessions are
/// ended, which is what a node turned standby looks like to a client.
@Suite("Service: the database lost and back")
struct DatabaseLossServiceTests {
    typealias F = EndToEndFixture

    @Test(
        "writes answer 503 database_unavailable with Retry-After while no node takes them; reads go on; /readyz names why; the log says lost and back",
        .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func readOnlyNodeAndBack() async throws {
        try await TestService.withService(backend: .postgreSQL) { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""items":[{"name":"a"}]"#))
            let id = try #require(F.int(note["_id"]))
            let database = try Self.databaseName(service.databaseLocation)
            let lossesBefore = try await client.metric("cloner_database_node_losses_total")

            try await Self.setReadOnly(true, database: database, service: service)
            for (path, body) in [("/notes/\(id)/clone", "{}"), ("/notes", F.note())] {
                let refused = try await client.post(path, body)
                #expect(refused.status == 503, "\(path): \(refused.text)")
                #expect(try refused.json()["code"] as? String == "database_unavailable", "\(refused.text)")
                #expect(refused.header("Retry-After") != nil)
                #expect((try refused.json()["detail"] as? String)?.contains("read-only") == true, "\(refused.text)")
            }
            #expect(try await client.get("/notes/\(id)").status == 200, "reads need no primary")
            let ready = try await client.get("/readyz")
            #expect(ready.status == 503)
            #expect((try ready.json()["reason"] as? String)?.contains("read-only") == true, "\(ready.text)")
            #expect(
                service.log.waitForJSONLine(timeout: .seconds(30)) { ($0["message"] as? String)?.hasPrefix("database lost") == true } != nil)
            #expect(try await service.count("Note") == 1, "nothing was written")

            try await Self.setReadOnly(false, database: database, service: service)
            let clone = try await client.post("/notes/\(id)/clone", "{}")
            #expect(clone.status == 201, "\(clone.text)")
            #expect(try await client.get("/readyz").status == 200)
            let back = service.log.waitForJSONLine(timeout: .seconds(30)) { $0["message"] as? String == "database back" }
            #expect(back?["node"] as? String != nil, "the line names the node")
            #expect(try await client.metric("cloner_database_node_losses_total") > lossesBefore)
            #expect(try await client.metric("cloner_database_reconnects_total") >= 1)
            #expect(try await client.metric("cloner_database_connections") >= 1)
        }
    }

    @Test(
        "with requireSynchronousStandby and no synchronous standby, writes answer 503 database_unavailable saying why and write nothing; reads go on; /readyz says why",
        .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func noSynchronousStandby() async throws {
        try await TestService.withService(backend: .postgreSQL, environment: ["CLONER_REQUIRE_SYNCHRONOUS_STANDBY": "true"]) { service in
            let client = service.client
            let refused = try await client.post("/notes", F.note())
            #expect(refused.status == 503, "\(refused.text)")
            #expect(try refused.json()["code"] as? String == "database_unavailable", "\(refused.text)")
            #expect(refused.header("Retry-After") != nil)
            #expect((try refused.json()["detail"] as? String)?.contains("synchronous_standby_names") == true, "\(refused.text)")
            #expect(try await client.get("/notes").status == 200, "reads need no standby")
            let ready = try await client.get("/readyz")
            #expect(ready.status == 503, "\(ready.text)")
            #expect((try ready.json()["reason"] as? String)?.contains("requireSynchronousStandby") == true, "\(ready.text)")
            #expect(try await service.count("Note") == 0, "nothing was written")
        }
    }

    /// New sessions of `database` refuse writes (or take them again), and its open sessions end.
    /// Run from the cluster's `postgres` database, which stays writable.
    static func setReadOnly(_ readOnly: Bool, database: String, service: TestService) async throws {
        let setting = readOnly ? "SET default_transaction_read_only = on" : "RESET default_transaction_read_only"
        let admin = service.databaseLocation.replacingOccurrences(of: "@/\(database)?", with: "@/postgres?")
        _ = try await Blocking.run {
            try DatabaseShell.run(
                """
                ALTER DATABASE \(database) \(setting);
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)';
                """, backend: .postgreSQL, location: admin)
        }
    }

    /// The database's name in a test URI (`postgresql://postgres@/NAME?host=…`).
    static func databaseName(_ uri: String) throws -> String {
        guard let start = uri.range(of: "@/"), let end = uri.range(of: "?", range: start.upperBound..<uri.endIndex) else {
            throw ClientError("no database name in \(uri)")
        }
        return String(uri[start.upperBound..<end.lowerBound])
    }
}
