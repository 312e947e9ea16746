import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// At most `maxConcurrentImports` imports read, check and write at once; the others wait their
/// turn, with their bodies unread, and run when a turn is given back — however the import that
/// held it ended.
@Suite("Service: imports wait their turn")
struct ImportSlotsServiceTests {
    typealias F = EndToEndFixture

    @Test("past maxConcurrentImports an import waits (cloner_imports_waiting) and runs when the holder's client goes", arguments: StoreBackendKind.available)
    func importsWaitTheirTurn(_ backend: StoreBackendKind) async throws {
        // The holder stalls mid-body until the test closes it: the body deadlines must not end it
        // first, however long a loaded machine takes between the steps.
        let patient = [
            "CLONER_MAX_CONCURRENT_IMPORTS": "1", "CLONER_HTTP_BODY_TIMEOUT": "600", "CLONER_HTTP_BODY_READ_TIMEOUT": "600",
            "CLONER_HTTP_BODY_MAX_TIMEOUT": "600",
        ]
        try await TestService.withService(backend: backend, environment: patient) { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""name":"turns""#))
            let noteID = try #require(F.int(note["_id"]))
            let document = try await client.get("/notes/\(noteID)/export").text
            let count = try await service.count("Note")

            // An import that holds the one turn: 100 bytes of a long first line, then nothing.
            let holder = try RawClient(port: service.port, timeout: 60)
            holder.send(ImportLineBudgetServiceTests.importHead(length: 100_000))
            holder.send(Array(document.utf8.prefix(100)))
            let held = try await client.metric("cloner_import_line_bytes", settlingAt: 100, timeout: .seconds(60))
            try #require(held == 100, "the holder never started reading (the gauge shows \(held))")

            // A whole import waits for the turn rather than being refused.
            let waiting = Task { try await client.importGraph("notes", document) }
            let queued = try await client.metric("cloner_imports_waiting", settlingAt: 1, timeout: .seconds(60))
            #expect(queued == 1)
            #expect(try await service.count("Note") == count, "the waiting import ran beside the holder")

            // The holder's client goes: its turn passes on, and the waiting import runs.
            holder.close()
            let answer = try await waiting.value
            #expect(answer.status == 201, "\(answer.status) \(answer.text)")
            #expect(try await client.metric("cloner_imports_waiting") == 0)
            #expect(try await service.count("Note") == count + 1)
            // And the turn is free again.
            #expect(try await client.importGraph("notes", document).status == 201)
        }
    }
}
