import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `scripts/replicas.sh` divides the one database's clones among the replicas: the haproxy
/// configuration it writes gives each replica's clone backend that share.
@Suite struct ReplicasScriptTests {
    /// The `maxconn` of the `cloner_clones` backend in the configuration rendered for `replicas`.
    static func cloneMaxconn(replicas: Int, arguments: [String] = []) throws -> String? {
        let script = repositoryRoot.appendingPathComponent("scripts/replicas.sh").path
        let servers = (1...replicas).map { "127.0.0.1:\(20_000 + $0)" }
        let outcome = try ShortCommand.run("/bin/bash", [script, "haproxy-config"] + arguments + servers)
        #expect(outcome.status == 0, "\(String(decoding: outcome.errors, as: UTF8.self))")
        let text = String(decoding: outcome.output, as: UTF8.self)
        let backend = try #require(text.components(separatedBy: "\nbackend cloner_clones").dropFirst().first)
        let line = backend.split(separator: "\n").first { $0.contains("default-server maxconn") }
        return line.map { String($0.split(separator: " ").last!) }
    }

    @Test func eachReplicaGetsItsShareOfTheDatabasesClones() throws {
        #expect(try Self.cloneMaxconn(replicas: 1) == "8")
        #expect(try Self.cloneMaxconn(replicas: 3) == "3")
        #expect(try Self.cloneMaxconn(replicas: 8) == "2", "never fewer than 2")
        #expect(try Self.cloneMaxconn(replicas: 3, arguments: ["--clone-maxconn", "5"]) == "5")
    }
}

/// haproxy with no replica in rotation answers the 503 itself, in Cloner's shape: a problem
/// document with `Retry-After`, so that clients back off as they would from a replica.
@Suite struct ReplicasHaproxyUnavailableTests {
    @Test(
        "no replica ready: 503 problem+json with Retry-After from haproxy",
        .enabled(if: ReplicasEventsEndToEndTests.isEnabled, "haproxy is not installed (apt-get install haproxy); under CI=true this fails instead"))
    func haproxyAnswersAsAReplicaWould() async throws {
        let haproxy = try #require(ReplicasEventsEndToEndTests.haproxy, "CI=true needs haproxy")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (port, stats, replica) = (try FreePort.take(), try FreePort.take(), try FreePort.take())
        let script = repositoryRoot.appendingPathComponent("scripts/replicas.sh").path
        let rendered = try ShortCommand.run(
            "/bin/bash", [script, "haproxy-config", "--listen", "127.0.0.1:\(port)", "--stats-listen", "127.0.0.1:\(stats)", "127.0.0.1:\(replica)"])
        #expect(rendered.status == 0, "\(String(decoding: rendered.errors, as: UTF8.self))")
        let config = try directory.write(String(decoding: rendered.output, as: UTF8.self), to: "haproxy.cfg")
        let proxy = try ChildProcess(haproxy, ["-f", config, "-db"])
        defer { proxy.killAndReap() }
        let client = ServiceClient(port: port)
        var answer: ClientResponse?
        try await eventually("haproxy answers on \(port)", timeout: .seconds(30)) {
            answer = try? await client.get("/notes")
            return answer != nil
        }
        let response = try #require(answer)
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(response.header("Content-Type") == "application/problem+json")
        let problem = try response.json()
        #expect(problem["code"] as? String == "service_unavailable" && problem["status"] as? Int == 503, "\(response.text)")
    }
}
