import ClonerTestSupport
import ClonerServiceTestSupport
import Foundation
import Testing

/// What an export and an import cost the process, and what a killed import leaves: the real
/// binary on real SQLite files.
@Suite("End to end: graphs that travel, memory and crashes")
struct GraphTravelLimitsEndToEndTests {
    typealias F = EndToEndFixture

    /// Peak resident memory (VmHWM) of a process, in KiB.
    static func peakKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else {
            throw ClientError("no VmHWM in /proc/\(pid)/status")
        }
        return kib
    }

    /// A note with a memo holding `count` attachments of `size` random bytes, written into
    /// `database` through a service of its own; the note's `_id`. Bodies go through files and
    /// curl, not this process's memory: other suites running beside this one measure their own
    /// process's growth.
    static func seedAttachments(database: String, directory: URL, count: Int, size: Int) async throws -> Int {
        var noteID = 0
        let body = directory.appendingPathComponent("attachment.json").path
        try await ServiceProcess.withService(arguments: ["--database", database]) { service in
            let note = try await service.client.create("notes", F.note(#""name":"blobs""#))
            noteID = try #require(F.int(note["_id"]))
            let memo = try await service.client.create("memos", #"{"createDate":"\#(F.date)","note":\#(noteID)}"#)
            let memoID = try #require(F.int(memo["_id"]))
            let shell = try ShortCommand.run(
                "/bin/sh",
                [
                    "-c", #"{ printf '{"memo":%s,"image":"' "$1"; head -c "$2" /dev/urandom | base64 -w0; printf '"}'; } > "$3""#,
                    "sh", "\(memoID)", "\(size)", body,
                ])
            #expect(shell.status == 0)
            for _ in 0..<count {
                let status = try await Self.curl([
                    "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@\(body)",
                    "-o", "/dev/null", "http://127.0.0.1:\(service.port)/attachments",
                ])
                #expect(status == "201")
            }
        }
        return noteID
    }

    /// Writes the export of `noteID` to `output` through a fresh service on `database`; the
    /// server's peak RSS before and after, in KiB, and the document's length.
    static func export(database: String, noteID: Int, to output: String) async throws -> (before: Int, after: Int, length: UInt64) {
        try await ServiceProcess.withService(arguments: ["--database", database]) { service in
            let pid = service.process.processIdentifier
            let before = try Self.peakKiB(pid)
            let status = try await Self.curl(["-o", output, "http://127.0.0.1:\(service.port)/notes/\(noteID)/export"])
            let after = try Self.peakKiB(pid)
            #expect(status == "200")
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: output))
            let length = try handle.seekToEnd()
            try handle.close()
            return (before, after, length)
        }
    }

    @Test("an export of 160 MiB of attachments raises the server's peak memory by less than 100 MiB")
    func exportMemoryIsBounded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.url.appendingPathComponent("blobs.sqlite").path
        let count = 40
        let size = 4 << 20
        let noteID = try await Self.seedAttachments(database: database, directory: directory.url, count: count, size: size)
        let output = directory.url.appendingPathComponent("export.ndjson").path
        // A fresh process on the same file: its peak so far is start-up, not the seeding.
        let (before, after, length) = try await Self.export(database: database, noteID: noteID, to: output)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: output))
        try handle.seek(toOffset: length - 200)
        let tail = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        try handle.close()
        #expect(tail.hasSuffix("{\"kind\":\"end\",\"objects\":\(2 + count),\"references\":0}\n"), "the whole graph was written: \(tail)")
        Self.expectBoundedGrowth("export", attachments: count * size, document: length, peakKiB: (before, after))
    }

    @Test("an import of 160 MiB of attachments raises the server's peak memory by less than 100 MiB")
    func importMemoryIsBounded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.url.appendingPathComponent("blobs.sqlite").path
        let count = 40
        let size = 4 << 20
        let noteID = try await Self.seedAttachments(database: database, directory: directory.url, count: count, size: size)
        let document = directory.url.appendingPathComponent("export.ndjson").path
        let length = try await Self.export(database: database, noteID: noteID, to: document).length
        // Into an empty store, in a fresh process: its peak so far is start-up.
        let target = directory.url.appendingPathComponent("target.sqlite").path
        try await ServiceProcess.withService(arguments: ["--database", target]) { service in
            let pid = service.process.processIdentifier
            let before = try Self.peakKiB(pid)
            let answer = directory.url.appendingPathComponent("answer.json").path
            let status = try await Self.curl([
                "-X", "POST", "-H", "Content-Type: application/vnd.cloner.graph+x-ndjson", "--data-binary", "@\(document)",
                "-o", answer, "http://127.0.0.1:\(service.port)/notes/import",
            ])
            let after = try Self.peakKiB(pid)
            #expect(status == "201", "\((try? String(contentsOfFile: answer, encoding: .utf8)) ?? "")")
            let created = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: answer))) as? [String: Any]
            #expect(F.counts(created?["created"]) == ["Note": 1, "Memo": 1, "Attachment": count])
            Self.expectBoundedGrowth("import", attachments: count * size, document: length, peakKiB: (before, after))
        }
    }

    /// Prints the server's peak RSS before and after, and expects it grew by less than 100 MiB.
    static func expectBoundedGrowth(_ what: String, attachments: Int, document: UInt64, peakKiB: (before: Int, after: Int)) {
        let growthMiB = Double(peakKiB.after - peakKiB.before) / 1024
        print(
            "\(what) of \(attachments >> 20) MiB of attachments (\(document >> 20) MiB document): server peak RSS "
                + "\(peakKiB.before / 1024) → \(peakKiB.after / 1024) MiB, growth \(String(format: "%.1f", growthMiB)) MiB")
        #expect(growthMiB < 100, "\(what): growth \(growthMiB) MiB")
    }

    /// Runs curl; returns the HTTP status it reports (`-w %{http_code}`).
    static func curl(_ arguments: [String]) async throws -> String {
        try await Blocking.run {
            let outcome = try ShortCommand.run(
                "/usr/bin/curl", ["-s", "--noproxy", "*", "--max-time", "300", "-w", "%{http_code}"] + arguments, timeout: .seconds(330))
            return String(decoding: outcome.output, as: UTF8.self)
        }
    }

    @Test("an import killed with SIGKILL while it writes leaves nothing behind")
    func killedImportLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The service's own database (directory/cloner.sqlite), so `counts` reads it.
        let database = directory.url.appendingPathComponent("cloner.sqlite").path
        // A document of 1 note and 30,000 items, written by hand in the export's form.
        let items = 30_000
        var lines = [
            #"{"kind":"header","format":"cloner-graph","version":1,"fingerprint":"x","root":{"entity":"Note","ref":1},"entities":{"Note":{"attributes":{"id":"uuid","createDate":"date","name":"string"},"relationships":{"items":{"destination":"Item","toMany":true,"ordered":true}},"key":["id"]},"Item":{"attributes":{"name":"string"},"relationships":{},"key":null}}}"#
        ]
        lines.append(
            #"{"kind":"object","entity":"Note","ref":1,"parent":null,"attributes":{"id":"\#(F.uuid())","createDate":"\#(F.date)","name":"big"},"relationships":{"items":[\#((1...items).map(String.init).joined(separator: ","))]}}"#
        )
        for item in 1...items {
            lines.append(
                #"{"kind":"object","entity":"Item","ref":\#(item),"parent":{"entity":"Note","ref":1},"attributes":{"name":"item \#(item) \#(String(repeating: "x", count: 200))"},"relationships":{}}"#
            )
        }
        lines.append(#"{"kind":"end","objects":\#(items + 1),"references":0}"#)
        let document = directory.url.appendingPathComponent("big.ndjson")
        #expect(FileManager.default.createFile(atPath: document.path, contents: nil))
        let writer = try FileHandle(forWritingTo: document)
        for line in lines { try writer.write(contentsOf: Data((line + "\n").utf8)) }
        try writer.close()

        let seeding = try await ServiceProcess.start(directory: directory.url)
        _ = try await seeding.client.create("notes", F.note(#""name":"kept""#))
        await seeding.stopAndWait()
        let wal = database + "-wal"
        let walBefore = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        let process = try ChildProcess(
            ServiceProcess.executablePath,
            ["import", "--database", database, "--model", ServiceProcess.sampleModelPath, "notes", "--input", document.path])
        // The import's transaction has begun writing once the WAL grows; kill it then. Polled on
        // a thread of its own: a task on the cooperative pool, which the in-process suites keep
        // busy, could miss the whole import between two looks.
        let sawWrite = try await Blocking.run {
            while process.isRunning {
                let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
                if size > walBefore + 64 * 1024 {
                    process.signal(SIGKILL)
                    return true
                }
                usleep(2_000)
            }
            return false
        }
        #expect(process.waitForExit(timeout: .seconds(60)))
        #expect(sawWrite, "the import finished before the test saw it write; the document is too small for this machine")
        if sawWrite { #expect(process.terminatedBySignal) }
        let service = try await ServiceProcess.start(directory: directory.url)
        let counts = try await service.counts(["Note", "Item"])
        #expect(counts == [1, 0], "nothing of the killed import is left")
        let kept = try await service.client.get("/notes/1")
        #expect(kept.status == 200)
        await service.stopAndWait()
    }
}
