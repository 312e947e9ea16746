import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Imports read their documents a line at a time as the bodies arrive; what all of them hold for
/// unfinished lines is bounded (`maxBufferedImportBytes`), so one client sending long lines on many
/// connections cannot make the service hold gigabytes.
@Suite("Service: the bytes imports in flight may hold")
struct ImportLineBudgetServiceTests {
    static func importHead(length: Int) -> String {
        "POST /notes/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/vnd.cloner.graph+x-ndjson\r\nContent-Length: \(length)\r\n\r\n"
    }

    /// A whole import body of `count` bytes and no newline: one unfinished line until its end.
    /// Its answer: 503 when the line did not fit beside the others', else the document's 400.
    static func unfinishedLine(_ service: TestService, count: Int) async throws -> RawResponse {
        let client = try RawClient(port: service.port, timeout: 60)
        defer { client.close() }
        client.send(importHead(length: count) + String(repeating: "x", count: count))
        return try await client.response()
    }

    @Test("past maxBufferedImportBytes an import is a 503 with Retry-After, alone or beside others; what it held is given back")
    func unfinishedLinesAreBounded() async throws {
        try await TestService.withService(environment: ["CLONER_MAX_BUFFERED_IMPORT_BYTES": "4096"]) { service in
            // Alone, a line of 2000 bytes fits: the body ends and the document is what is wrong.
            let alone = try await Self.unfinishedLine(service, count: 2000)
            #expect(alone.status == 400, "\(String(decoding: alone.body, as: UTF8.self))")
            // A line of 5000 bytes does not fit even alone.
            let tooLong = try await Self.unfinishedLine(service, count: 5000)
            #expect(tooLong.status == 503 && tooLong.header("Retry-After") == "1")
            let problem = String(decoding: tooLong.body, as: UTF8.self)
            #expect(problem.contains("maxBufferedImportBytes") && problem.contains("service_unavailable"), "\(problem)")
            // What it held is given back: 2000 bytes fit again.
            #expect(try await Self.unfinishedLine(service, count: 2000).status == 400)

            #expect(try await service.client.metric("cloner_import_line_bytes", settlingAt: 0) == 0)

            // An import that holds 3000 bytes of a line, sent as 2100 and 900, and sends no more.
            // It counts the line's bytes however they were cut (alone, 3000 fit). The gauge says
            // when the service has read them; from then on the same 2000 bytes no longer fit.
            let holder = try RawClient(port: service.port, timeout: 60)
            holder.send(Self.importHead(length: 100_000))
            holder.send(Array(repeating: UInt8(ascii: "x"), count: 2100))
            let first = try await service.client.metric("cloner_import_line_bytes", settlingAt: 2100, timeout: .seconds(60))
            try #require(first == 2100, "the service never counted the holder's first 2100 bytes (the gauge shows \(first))")
            holder.send(Array(repeating: UInt8(ascii: "x"), count: 900))
            let held = try await service.client.metric("cloner_import_line_bytes", settlingAt: 3000, timeout: .seconds(60))
            try #require(held == 3000, "the holder's 3000 bytes are not counted as 3000 (the gauge shows \(held))")
            let refused = try await Self.unfinishedLine(service, count: 2000)
            #expect(refused.status == 503 && refused.header("Retry-After") == "1", "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("hold 3000 bytes"))
            #expect(try await service.client.metric("cloner_import_line_bytes") == 3000, "the refused import kept a share")

            // The holder goes: what it held is given back, and the 2000 bytes fit again.
            holder.close()
            #expect(try await service.client.metric("cloner_import_line_bytes", settlingAt: 0, timeout: .seconds(60)) == 0)
            #expect(try await Self.unfinishedLine(service, count: 2000).status == 400)
        }
    }
}
