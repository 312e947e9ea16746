import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A second `cloner serve` on a port already served (docs/architecture.md#limits-and-admission) fails at start with "address
/// in use" and a non-zero exit — never shares the port, which would split requests between two
/// services with different databases.
@Suite("End to end: port in use")
struct PortInUseEndToEndTests {
    @Test("a second cloner serve on the same port exits non-zero with \"address in use\"; the first keeps serving")
    func secondServeOnTheSamePortFails() async throws {
        try await ServiceProcess.withService { first in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let second = try await ServiceProcess.run(
                [
                    "serve", "--host", "127.0.0.1", "--port", "\(first.port)",
                    "--database", directory.url.appendingPathComponent("second.sqlite").path,
                    "--model", ServiceProcess.sampleModelPath,
                ],
                in: directory.url, timeout: .seconds(30))
            #expect(second.status != 0, "the second service started: \(second.stdout)")
            #expect(second.stderr.contains("address in use"), "stderr: \(second.stderr)")
            #expect(second.stderr.contains("127.0.0.1:\(first.port)"), "stderr: \(second.stderr)")
            #expect(!second.stdout.contains(#""message":"listening""#))
            #expect(try await first.client.get("/healthz").status == 200)
        }
    }

    /// Found while fixing the port: a second instance opened the store and marked the first one's
    /// running jobs as interrupted before it failed to bind. It now marks them only once it holds
    /// the port.
    @Test("a second cloner serve that cannot bind leaves the first one's running jobs alone")
    func failedSecondStartKeepsLiveJobs() async throws {
        try await ServiceProcess.withService { first in
            // A job of the first replica, its lease alive (an hour from now).
            let owner = try #require(first.replicaID)
            let leaseEnd = Int64((Date().timeIntervalSince1970 + 3600) * 1000)
            _ = try await first.sql(
                """
                INSERT INTO _cloner_jobs (id, status, request, created_at, owner, lease_expires_at)
                VALUES ('live-job', 'running', X'7B7D', 0, '\(owner)', \(leaseEnd));
                """)
            let second = try await ServiceProcess.run(
                [
                    "serve", "--host", "127.0.0.1", "--port", "\(first.port)",
                    "--database", first.databasePath, "--model", ServiceProcess.sampleModelPath,
                ],
                in: first.directory, timeout: .seconds(30))
            #expect(second.status != 0 && second.stderr.contains("address in use"), "stderr: \(second.stderr)")
            #expect(
                try await first.sql("SELECT status FROM _cloner_jobs WHERE id = 'live-job';") == "running",
                "the live instance's job was marked failed by an instance that never served")
        }
    }
}
