import ClonerConcurrency
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
        let note = try await client.createdID("notes", F.note(#""items":[\#(items)]"#))
        // The copy is held at its items until a stream has seen it under way: the events cannot
        // all be over before the watchers connect, however fast the clone.
        let holder = try PostgreSQLConnection(uri: try value("DATABASE_URI"))
        try holder.execute("BEGIN; LOCK TABLE \"Item\" IN SHARE ROW EXCLUSIVE MODE")
        defer { try? holder.execute("ROLLBACK") }
        let accepted = try await client.post("/notes/\(note)/clone", #"{"copies": 4}"#, headers: [("Prefer", "respond-async")])
        #expect(accepted.status == 202, "\(accepted.text)")
        let job = try #require(accepted.header("Location"))
        // Two watchers, sent one after the other, which haproxy's round robin gives to the two
        // replicas: the job's own streams its progress, the other reads the job's row and sends
        // its end. The copy is let go only once a progress event has come through haproxy while
        // it is held — the stream passes events as they come, not at its end.
        let watchers = try (0..<2).map { _ in try RawClient(port: port, timeout: 180) }
        for watcher in watchers { watcher.send("GET \(job)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") }
        let received = LockedValue<[[UInt8]]>([[], []])
        /// Reads watcher `index`'s stream as it comes, until the server closes it.
        @Sendable func read(_ index: Int) throws {
            while true {
                let bytes = try watchers[index].receiveSome()
                if bytes.isEmpty { return }
                received.withLock { $0[index] += bytes }
            }
        }
        async let first: Void = Blocking.run { try read(0) }
        async let second: Void = Blocking.run { try read(1) }
        // The notes are written before the copy waits at its items: an event saying so.
        try await eventually("a progress event with rows written, through haproxy, while the copy is held", timeout: .seconds(120)) {
            received.withLock { streams in
                streams.contains { String(decoding: $0, as: UTF8.self).range(of: #""written":[1-9]"#, options: .regularExpression) != nil }
            }
        }
        try holder.execute("ROLLBACK")
        _ = try await (first, second)
        var streams: [[(name: Substring, written: Int?)]] = []
        for bytes in received.withLock({ $0 }) {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
            // The body, chunked or not: its events are the blocks that start with `event: `.
            let events = text.components(separatedBy: "\n\n").compactMap { block -> String? in
                guard let start = block.range(of: "event: ") else { return nil }
                return String(block[start.lowerBound...])
            }
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
