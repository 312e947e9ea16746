import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `cloner export --all` and `cloner import --all` with the real binary: a store the service
/// filled moves into an empty one (PostgreSQL when the test cluster runs, else another SQLite
/// file), and the service on the target answers as it did on the source.
@Suite("End to end: moving a whole store")
struct StoreMoveEndToEndTests {
    typealias F = EndToEndFixture

    /// A binary value's answer, short: its status, and for a 200 its length and a hash of its bytes.
    static func digest(_ response: ClientResponse) -> String {
        guard response.status == 200 else { return "\(response.status)" }
        return "200 \(response.body.count) \(response.body.reduce(0) { $0 &* 31 &+ Int($1) })"
    }

    @Test("export --all → import --all: the same records, ids and blobs; the same summary lines; a second import refused")
    func move() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.sqlite").path
        let document = directory.url.appendingPathComponent("store.ndjson").path
        let model = ServiceProcess.sampleModelPath
        let target =
            PostgreSQLTestCluster.isEnabled
            ? try PostgreSQLTestCluster.shared.createDatabase().uri : directory.url.appendingPathComponent("target.sqlite").path

        var records: [String: String] = [:]
        try await ServiceProcess.withService(arguments: ["--database", source]) { service in
            let big = Data((0..<(1_300_000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }).base64EncodedString()
            for (index, name) in ["trip", "work"].enumerated() {
                let created = try await service.client.create("notes", F.richNote(name: name, tag: "tag\(index)"))
                let id = try #require(F.int(created["_id"]))
                records["/notes/\(id)"] = ""
            }
            let withData = try await service.client.create("notes", F.note(#""name":"with data","data":"\#(big)""#))
            records["/notes/\(try #require(F.int(withData["_id"])))"] = ""
            for path in records.keys {
                records[path] = try await service.client.get(path).text
                let data = try await service.client.get(path + "/data")
                records[path + "/data"] = Self.digest(data)
            }
            #expect(records.values.contains { $0.hasPrefix("200 1300000 ") }, "a value over one chunk (1 MiB) travels")
            records["/items"] = try await service.client.get("/items").text
            await service.stopAndWait()
        }

        let export = try await ServiceProcess.run(["export", "--all", "--database", source, "--model", model, "-o", document], in: directory.url)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("Note: 3 rows, highest _id 3, sha256 "), "\(export.stderr)")
        #expect(export.stderr.contains("_cloner_blobs: "), "\(export.stderr)")
        let imported = try await ServiceProcess.run(["import", "--all", "--database", target, "--model", model, "-i", document], in: directory.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == export.stderr, "both print the same counts and checksums")

        // Standard output into standard input, no file between: each side's lines to a file of its own.
        let piped = directory.url.appendingPathComponent("piped.sqlite").path
        let binary = ServiceProcess.executablePath
        let pipeline = try await ServiceProcess.run(
            [
                "-c",
                "'\(binary)' export --all --database '\(source)' --model '\(model)' 2> out.txt | '\(binary)' import --all --database '\(piped)' --model '\(model)' 2> in.txt",
            ], in: directory.url, executable: "/bin/sh")
        #expect(pipeline.status == 0, "\(pipeline.stderr)")
        let pipedOut = try String(contentsOf: directory.url.appendingPathComponent("out.txt"), encoding: .utf8)
        #expect(pipedOut.split(separator: "\n") == export.stderr.split(separator: "\n"))
        #expect(try String(contentsOf: directory.url.appendingPathComponent("in.txt"), encoding: .utf8) == pipedOut)

        let again = try await ServiceProcess.run(["import", "--all", "--database", target, "--model", model, "-i", document], in: directory.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("not empty: Note has rows"), "\(again.stderr)")
        let mixed = try await ServiceProcess.run(["import", "--all", "notes", "--database", target, "--model", model], in: directory.url)
        #expect(mixed.status != 0)

        let serveTarget = try await ServiceProcess.start(
            directory: directory.url, backend: PostgreSQLTestCluster.isEnabled ? .postgreSQL : .sqlite,
            arguments: PostgreSQLTestCluster.isEnabled ? [] : ["--database", target],
            sharedDatabase: PostgreSQLTestCluster.isEnabled ? target : nil)
        defer { serveTarget.stop() }
        for (path, before) in records.sorted(by: { $0.key < $1.key }) {
            if path.hasSuffix("/data") {
                let data = try await serveTarget.client.get(path)
                #expect(Self.digest(data) == before, "\(path)")
            } else {
                #expect(try await serveTarget.client.get(path).text == before, "\(path) reads the same on the target")
            }
        }
        let fresh = try await serveTarget.client.create("notes", F.note(#""name":"after""#))
        #expect(F.int(fresh["_id"]) == 4, "the next note gets the next id")
    }
}
