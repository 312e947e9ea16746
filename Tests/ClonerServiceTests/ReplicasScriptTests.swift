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
