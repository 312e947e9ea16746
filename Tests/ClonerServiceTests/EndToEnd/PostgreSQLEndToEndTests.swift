import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// The real binary on PostgreSQL (docs/architecture.md#postgresql): `--database` takes a libpq URI, and a password
/// in it never reaches a log line or an error.
@Suite("End to end: PostgreSQL URI", .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
struct PostgreSQLEndToEndTests {
    static let password = "pw-that-must-not-leak-7d1"

    @Test("a URI with a password serves; the log shows the location with *** and never the password")
    func passwordNeverLogged() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let service = try await ServiceProcess.start(
            directory: directory.url, backend: .postgreSQL,
            environment: ["CLONER_LOG_LEVEL": "debug"], databasePassword: Self.password)
        defer { service.stop() }
        let created = try await service.client.post("/notes", EndToEndFixture.note(#""name":"pg""#))
        #expect(created.status == 201)
        #expect(try await service.count("Note") == 1)
        let listening = service.stdout.text.split(separator: "\n").first { $0.contains("\"listening\"") }.map(String.init) ?? ""
        #expect(listening.contains("postgres:***@"), "the location, redacted: \(listening)")
        #expect(!service.stdout.text.contains(Self.password))
        #expect(!service.stderr.text.contains(Self.password))
    }

    @Test("an unreachable server: exit 1, an error naming the redacted URI, no password anywhere")
    func unreachableServerWithoutPassword() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let uri = "postgresql://cloner:\(Self.password)@/cloner?host=\(directory.url.path)&port=1&connect_timeout=2"
        let outcome = try await ServiceProcess.run(
            ["serve", "--port", "0", "--database", uri, "--model", ServiceProcess.sampleModelPath], in: directory.url)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("cloner:***@"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains(Self.password))
        #expect(!outcome.stdout.contains(Self.password))
    }
}
