import ClonerConcurrency
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `cloner check-store` on a store whose process was killed mid-clone or mid-upload
/// (docs/architecture.md#shared-blobs); the routes themselves are tested in process
/// (`BlobResourceServiceTests`).
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
        // Clones in flight when the process dies: each commits whole or not at all. They go on
        // until the kill, so the probe below cannot miss them however the machine is loaded.
        // Sender and probe run on threads of their own: with the whole suite running, the
        // cooperative pool may not give a task a turn for as long as the probe waits.
        let stopped = LockedValue(false)
        Thread {
            while !stopped.withLock({ $0 }) { _ = try? client.requestNow("POST", "/notes/\(id)/clone", body: #"{"copies":20}"#) }
        }.start()
        defer { stopped.withLock { $0 = true } }
        try await Blocking.run {
            try eventuallyBlocking("a clone in flight (cloner_jobs_in_flight)", timeout: .seconds(60)) {
                try client.metricNow("cloner_jobs_in_flight") >= 1
            }
            service.signal(SIGKILL)
        }
        stopped.withLock { $0 = true }
        _ = await service.waitForExit(timeout: .seconds(10))

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

    @Test("check-store names an upload cut by kill -9 as a pending upload, not a corrupt blob", arguments: StoreBackendKind.available)
    func checkStoreAfterKillMidUpload(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The upload waits part-way while the test polls; a loaded machine must not stretch that past
        // the body timeouts, which would end the upload before the kill this test is about.
        let patient = ["CLONER_HTTP_BODY_READ_TIMEOUT": "600", "CLONER_HTTP_BODY_MAX_TIMEOUT": "600"]
        let service = try await ServiceProcess.start(directory: directory.url, backend: backend, environment: patient)
        let created = try await service.client.create("notes", F.note(#""name":"video""#))
        let id = try #require(F.int(created["_id"]))
        // Two and a half chunks of a five-chunk upload, then the process dies.
        let upload = try RawClient(port: service.port, timeout: 30)
        defer { upload.close() }
        upload.send("PUT /notes/\(id)/data HTTP/1.1\r\nHost: x\r\nContent-Length: \(5 << 20)\r\n\r\n")
        upload.send(Self.bytes(5 << 19))
        let written = "SELECT count(*) FROM \"_cloner_blob_chunks\" c JOIN \"_cloner_blobs\" b ON b.\"hash\" = c.\"hash\" WHERE b.\"size\" = -1"
        let deadline = ContinuousClock.now + .seconds(30)
        while try await service.sql(written) != "2" && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await service.sql(written) == "2", "the upload wrote its two whole chunks")
        service.signal(SIGKILL)
        _ = await service.waitForExit(timeout: .seconds(10))

        let arguments = ["check-store", "--database", service.databaseLocation, "--model", ServiceProcess.sampleModelPath]
        let checked = try await ServiceProcess.run(arguments, in: directory.url)
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        #expect(checked.stdout.contains("pending upload") && checked.stdout.contains("2 chunks (\(2 << 20) bytes)"), "\(checked.stdout)")
        #expect(checked.stdout.contains("housekeeping"), "\(checked.stdout)")
        #expect(!checked.stdout.contains("hash to") && !checked.stdout.contains("referenced by no record"), "\(checked.stdout)")
        #expect(checked.stdout.contains("blobs consistent (1 pending upload above)"), "\(checked.stdout)")
    }
}
