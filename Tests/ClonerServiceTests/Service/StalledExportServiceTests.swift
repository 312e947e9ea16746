import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Clients that ask for an export and never read must not starve the store: an export is read
/// at store speed into a spool (`ExportSpool`), so no read transaction or pooled connection waits
/// on a client, and the spools of all exports are bounded (`maxExportSpoolBytes`).
@Suite("Service: stalled exports leave the store served")
struct StalledExportServiceTests {
    typealias F = EndToEndFixture

    /// The socket receive buffer of a client that does not read: the server's writes to it block
    /// after a few kilobytes, long before a document of megabytes is through.
    static let stalledReceiveBuffer: Int32 = 4096

    /// The stalled clients read nothing for as long as a test's steps take, which a loaded machine
    /// may stretch past the default write timeout: the timeout is not what these tests are about.
    static let patientWrites = ["CLONER_HTTP_WRITE_TIMEOUT": "600"]

    static func exportRequest(_ noteID: Int) -> String {
        "GET /notes/\(noteID)/export HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    }

    /// A client that asks for the export of `noteID` and reads nothing until told to.
    static func stalledExport(_ service: TestService, _ noteID: Int) throws -> RawClient {
        let client = try RawClient(port: service.port, timeout: 60, receiveBuffer: stalledReceiveBuffer)
        client.send(exportRequest(noteID))
        return client
    }

    /// The export of `noteID` read at once, checked whole: a 200 whose chunked body ended.
    static func export(_ service: TestService, _ noteID: Int) async throws -> [UInt8] {
        let client = try RawClient(port: service.port, timeout: 60)
        defer { client.close() }
        client.send(exportRequest(noteID))
        let response = try await client.receiveResponse()
        try #require(response.status == 200, "\(response.status) \(response.text.prefix(300))")
        return response.body
    }

    /// `request` answered within `limit`; its status. Held connections made a request wait the
    /// pool's full 30 s and then answered 503; the bound sits well below that and well above what a
    /// loaded CI machine takes, so it tells the two apart without racing the machine.
    static func promptly(_ what: String, within limit: Duration = .seconds(15), _ request: () async throws -> ClientResponse) async throws -> Int {
        let started = ContinuousClock.now
        let response = try await request()
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < limit, "\(what) took \(elapsed) while exports were stalled")
        return response.status
    }

    /// Waits (bounded) until no session of the service is inside a transaction: on PostgreSQL no
    /// session of its database has one open; on SQLite a checkpoint may truncate the WAL, which
    /// any open read transaction would keep. False if one stayed open.
    static func transactionsEnd(_ service: TestService, within limit: Duration = .seconds(60)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            switch service.backend {
            case .postgreSQL:
                let open = try await service.sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid();")
                if open == "0" { return true }
            case .sqlite:
                // busy|log|checkpointed; busy is 0 only when no reader holds the WAL.
                let result = try await service.sql("PRAGMA busy_timeout = 1000; PRAGMA wal_checkpoint(TRUNCATE);")
                if result.split(separator: "\n").last?.hasPrefix("0|") == true { return true }
            }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A note whose `data` holds `bytes` bytes, created through the API; its `_id`.
    static func noteWithData(_ service: TestService, bytes: Int, name: String) async throws -> Int {
        let data = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }).base64EncodedString()
        let note = try await service.client.create("notes", F.note(#""name":"\#(name)","data":"\#(data)""#))
        return try #require(F.int(note["_id"]))
    }

    @Test(
        "more stalled exports than pooled connections: reads, clones and /readyz are answered promptly, and every document arrives whole",
        arguments: StoreBackendKind.available)
    func storeStaysServed(backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.patientWrites) { service in
            let client = service.client
            // About 3.5 MB of document: far more than a stalled client's socket buffers take.
            let large = try await service.seedLargeNote(items: 10_000, name: "large")
            let small = try await client.createdID("notes", F.note(#""name":"small","items":[{"name":"a"}]"#))
            let reference = try await Self.export(service, large)
            #expect(reference.count > 3_000_000)

            // The default pool holds 10 connections; each export a client of its own.
            let stalled = try (0..<12).map { _ in try Self.stalledExport(service, large) }
            defer { for client in stalled { client.close() } }

            // Every export read into its spool, none of them holding a transaction while its client
            // reads nothing; then the store answers at once (the reads into the spools, at store
            // speed on a loaded machine, are no part of what is measured).
            let spooled = Double(stalled.count * reference.count)
            #expect(try await client.metric("cloner_export_spool_bytes", settlingAt: spooled, timeout: .seconds(120)) == spooled)
            #expect(try await Self.transactionsEnd(service), "an export's read transaction stayed open while its client did not read")
            #expect(try await Self.promptly("a read") { try await client.get("/notes/\(small)") } == 200)
            #expect(try await Self.promptly("a clone") { try await client.post("/notes/\(small)/clone", "{}") } == 201)
            #expect(try await Self.promptly("/readyz") { try await client.get("/readyz") } == 200)

            // The clients read at last: each gets the whole document, the same as a fresh export.
            let documents = try await withThrowingTaskGroup(of: ClientResponse.self) { group in
                for client in stalled { group.addTask { try await client.receiveResponse() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(documents.count == 12)
            for document in documents {
                #expect(document.status == 200 && document.body == reference, "\(document.status), \(document.body.count) bytes")
            }
            #expect(try await client.metric("cloner_export_spool_bytes", settlingAt: 0, timeout: .seconds(60)) == 0, "a finished export kept its spool")
        }
    }

    @Test("a stalled export holds no transaction or pooled connection: its document waits in the spool", arguments: StoreBackendKind.available)
    func stalledExportHoldsNoTransaction(backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.patientWrites) { service in
            let large = try await service.seedLargeNote(items: 10_000, name: "large")
            // A write after the seed, so that a read transaction would hold frames of the WAL.
            _ = try await service.client.create("notes", F.note(#""name":"after""#))
            let reference = try await Self.export(service, large)

            let stalled = try Self.stalledExport(service, large)
            defer { stalled.close() }
            #expect(try await Self.transactionsEnd(service), "the export's read transaction stayed open while its client did not read")
            // Nothing was given back yet: the client took less than a MiB.
            let spooled = try await service.client.metric("cloner_export_spool_bytes", settlingAt: Double(reference.count), timeout: .seconds(60))
            #expect(spooled == Double(reference.count))

            let document = try await stalled.receiveResponse()
            #expect(document.status == 200 && document.body == reference)
            #expect(try await service.client.metric("cloner_export_spool_bytes", settlingAt: 0, timeout: .seconds(60)) == 0)
        }
    }

    @Test(
        "past maxExportSpoolBytes a new export is a 503 with Retry-After naming the setting; the room comes back when the client is done",
        arguments: StoreBackendKind.available)
    func spoolBudgetRefuses(backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The document's size first, on a service without a small budget; then a service on the
        // same store whose budget holds that document and less than the 256 KiB a new export needs.
        let first = try await TestService.start(directory: directory.url, backend: backend)
        let note: Int
        let reference: [UInt8]
        do {
            // About 5.6 MB: more than a stalled client's kernel buffers take, less than the 8 MiB
            // runs the spool gives back in, so the spool keeps it whole while the client waits.
            note = try await first.seedLargeNote(items: 15_000, name: "large")
            reference = try await Self.export(first, note)
        } catch {
            await first.stop()
            throw error
        }
        await first.stop()
        try #require(reference.count > 5_000_000 && reference.count < 8 << 20, "\(reference.count) bytes")
        let limit = reference.count + 100_000
        let service = try await TestService.start(
            directory: directory.url, backend: backend, environment: Self.patientWrites.merging(["CLONER_MAX_EXPORT_SPOOL_BYTES": "\(limit)"]) { $1 },
            sharedDatabase: backend == .postgreSQL ? first.databaseLocation : nil)
        do {
            let holder = try Self.stalledExport(service, note)
            defer { holder.close() }
            let held = try await service.client.metric("cloner_export_spool_bytes", settlingAt: Double(reference.count), timeout: .seconds(60))
            try #require(held == Double(reference.count), "the stalled export's document is not all spooled (\(held) bytes)")

            let refused = try await service.client.get("/notes/\(note)/export")
            #expect(refused.status == 503 && refused.header("Retry-After") == "1", "\(refused.status) \(refused.text.prefix(300))")
            #expect(refused.text.contains("maxExportSpoolBytes") && refused.text.contains("service_unavailable"), "\(refused.text.prefix(300))")

            let document = try await holder.receiveResponse()
            #expect(document.status == 200 && document.body == reference)
            #expect(try await service.client.metric("cloner_export_spool_bytes", settlingAt: 0, timeout: .seconds(60)) == 0)
            #expect(try await Self.export(service, note) == reference, "the room did not come back")
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    @Test(
        "an export whose spool runs out of room is cut short: the body lacks its end, the log says why, the room comes back",
        arguments: StoreBackendKind.available)
    func exportOutOfRoomIsCutShort(backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.patientWrites.merging(["CLONER_MAX_EXPORT_SPOOL_BYTES": "1048576"]) { $1 }) {
            service in
            // About 1.33 MB of base64: more than the whole budget.
            let note = try await Self.noteWithData(service, bytes: 1_000_000, name: "too large")
            let client = try Self.stalledExport(service, note)
            defer { client.close() }
            let line = await service.log.jsonLine(within: .seconds(30)) { $0["message"] as? String == "export cut short" }
            let error = try #require(line?["error"] as? String, "no `export cut short` line in the log")
            #expect(error.contains("maxExportSpoolBytes"), "\(error)")

            let received = try await client.receive()
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
            #expect(throws: (any Error).self, "a cut export must not parse as a whole chunked body") { try ClientResponse.parse(received) }
            #expect(try await service.client.metric("cloner_export_spool_bytes", settlingAt: 0, timeout: .seconds(60)) == 0)
        }
    }
}
