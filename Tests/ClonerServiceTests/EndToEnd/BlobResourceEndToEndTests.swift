import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `cloner check-store` on a store whose process was killed mid-clone (docs/architecture.md#shared-blobs);
/// the routes themselves are tested in process (`BlobResourceServiceTests`).
@Suite("End to end: blobs after kill -9")
struct BlobResourceEndToEndTests {
    typealias F = EndToEndFixture

    /// Deterministic bytes, so a failure is reproducible.
    static func bytes(_ count: Int, seed: Int = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 7) }
    }

    @Test("check-store is clean after kill -9 mid-clone, and names a stray blob", arguments: StoreBackendKind.available)
    func checkStoreAfterKill(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let service = try await ServiceProcess.start(directory: directory.url, backend: backend)
        let client = service.client
        let memos = (0..<40).map { index in
            #"{"text":"m\#(index)","createDate":"\#(F.date)","attachments":[{"image":"\#(Data(Self.bytes(64 << 10, seed: index)).base64EncodedString())"}]}"#
        }.joined(separator: ",")
        let created = try await client.create("notes", F.note(#""name":"big","memos":[\#(memos)]"#))
        let id = try #require(F.int(created["_id"]))
        // Clones in flight when the process dies: each commits whole or not at all.
        let clones = Task { for _ in 0..<50 { _ = try? await client.post("/notes/\(id)/clone", #"{"copies":20}"#) } }
        try await Task.sleep(for: .milliseconds(700))
        service.signal(SIGKILL)
        _ = await service.waitForExit(timeout: .seconds(10))
        clones.cancel()

        let arguments = ["check-store", "--database", service.databaseLocation, "--model", ServiceProcess.sampleModelPath]
        let clean = try await ServiceProcess.run(arguments, in: directory.url)
        #expect(clean.status == 0, "\(clean.stdout) \(clean.stderr)")
        #expect(clean.stdout.contains("consistent"))

        let stray = String(repeating: "ab", count: 32)
        let literal = backend == .sqlite ? "X'\(stray)'" : "'\\x\(stray)'::bytea"
        _ = try await service.sql("INSERT INTO \"_cloner_blobs\" (\"hash\", \"size\") VALUES (\(literal), 0)")
        let dirty = try await ServiceProcess.run(arguments, in: directory.url)
        #expect(dirty.status == 1)
        #expect(dirty.stdout.contains(stray), "\(dirty.stdout)")
        #expect(dirty.stdout.contains("referenced by no record"))
    }
}
