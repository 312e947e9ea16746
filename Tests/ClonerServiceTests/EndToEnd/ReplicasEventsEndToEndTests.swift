import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// `scripts/replicas.sh` as the README runs it — two replicas behind haproxy on one PostgreSQL
/// database — and a job watched with `curl -N` through haproxy: its progress events as the copy
/// goes, then the last event, then the end of the stream.
@Suite("End to end: a job's events through haproxy", .serialized)
struct ReplicasEventsEndToEndTests {
    typealias F = EndToEndFixture

    static let haproxy = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Without haproxy the test is skipped, unless CI=true, where it fails.
    static var isEnabled: Bool { haproxy != nil || PostgreSQLTestCluster.isRequired }

    @Test(
        "progress events while the copy runs, then succeeded, through haproxy in front of two replicas",
        .enabled(if: isEnabled, "haproxy is not installed (apt-get install haproxy); under CI=true this fails instead"))
    func eventsThroughHaproxy() async throws {
        #expect(Self.haproxy != nil, "CI=true needs haproxy")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = directory.url.appendingPathComponent("replicas").path
        let script = Repository.root.appendingPathComponent("scripts/replicas.sh").path
        let started = try ShortCommand.run(
            "/usr/bin/env", ["CLONER_BIN=\(ServiceProcess.executablePath)", "/bin/bash", script, "--detach", "--dir", state, "2"], timeout: .seconds(240))
        defer { _ = try? ShortCommand.run("/bin/bash", [script, "stop", state], timeout: .seconds(60)) }
        #expect(started.status == 0, "\(String(decoding: started.errors, as: UTF8.self))")
        let env = try String(contentsOfFile: state + "/env", encoding: .utf8)
        func value(_ name: String) throws -> String {
            let line = try #require(env.split(separator: "\n").first { $0.hasPrefix(name + "=") }, "\(name) in \(env)")
            return String(line.dropFirst(name.count + 1)).replacingOccurrences(of: "\\", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        let url = try value("URL")
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let client = ServiceClient(port: port)

        let items = (0..<500).map { #"{"name":"i\#($0)"}"# }.joined(separator: ",")
        let note = try #require(F.int(try await client.create("notes", F.note(#""items":[\#(items)]"#))["_id"]))
        // The copy is held at its items until the stream has seen it start: the events cannot all
        // be over before the watcher connects, however fast the clone.
        let holder = try PostgreSQLConnection(uri: try value("DATABASE_URI"))
        try holder.execute("BEGIN; LOCK TABLE \"Item\" IN SHARE ROW EXCLUSIVE MODE")
        defer { try? holder.execute("ROLLBACK") }
        let accepted = try await client.post("/notes/\(note)/clone", #"{"copies": 4}"#, headers: [("Prefer", "respond-async")])
        #expect(accepted.status == 202, "\(accepted.text)")
        let job = try #require(accepted.header("Location"))
        // Two watchers, which haproxy gives to the two replicas: the job's own streams its progress,
        // the other reads the job's row and sends its end.
        let watches = (0..<2).map { _ in
            // On threads of their own: a curl waited for on the cooperative pool would hold it.
            Task {
                try await Blocking.run {
                    try ShortCommand.run("/usr/bin/curl", ["-s", "-N", "--max-time", "180", "\(url)\(job)/events"], timeout: .seconds(200))
                }
            }
        }
        try await eventually("the copy's notes written", timeout: .seconds(120)) {
            let progress = try await client.get(job).json()["progress"] as? [String: Any]
            return (progress?["written"] as? Int ?? 0) > 0
        }
        try holder.execute("ROLLBACK")
        var streams: [[(name: Substring, written: Int?)]] = []
        for watch in watches {
            let watched = try await watch.value
            #expect(watched.status == 0, "curl ended with \(watched.status): the stream ends after its last event")
            let events = String(decoding: watched.output, as: UTF8.self).components(separatedBy: "\n\n").filter { $0.hasPrefix("event: ") }
            streams.append(
                events.map { event in
                    let lines = event.split(separator: "\n")
                    let data = lines.first { $0.hasPrefix("data: ") }.map { Data($0.dropFirst(6).utf8) } ?? Data()
                    let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                    return (lines[0].dropFirst("event: ".count), (json?["progress"] as? [String: Any])?["written"] as? Int)
                })
        }
        for stream in streams {
            #expect(stream.last?.name == "succeeded", "\(stream)")
            #expect(stream.last?.written == 4 * 501, "\(stream)")
            #expect(stream.dropLast().allSatisfy { $0.name == "progress" }, "\(stream)")
        }
        let total = 4 * 501
        let midway = streams.joined().contains { event in
            let written = event.written ?? 0
            return event.name == "progress" && written > 0 && written < total
        }
        #expect(midway, "the job's own replica streamed its progress mid-copy: \(streams)")
    }
}
