import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// What a `PUT /{collection}/{id}/{attribute}` is answered before its body is read
/// (docs/architecture.md#shared-blobs): a stale `If-Match` is a 412, and an upload past
/// `maxBufferedUploadBytes` a 503, each without `100 Continue`, nothing of the body taken or
/// stored. Raw sockets, so every interim answer is seen.
@Suite("Service: binary value uploads answered before their body")
struct BlobUploadAdmissionServiceTests {
    typealias F = EndToEndFixture

    static func putHead(_ path: String, length: Int, _ fields: String = "") -> String {
        "PUT \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: \(length)\r\n\(fields)\r\n"
    }

    @Test("a stale If-Match is a 412 before the body: no 100 Continue, nothing read or stored", arguments: StoreBackendKind.available)
    func staleIfMatch(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let created = try await service.client.create("notes", F.note(#""data":"AAEC""#))
            let id = try #require(F.int(created["_id"]))
            let version = try #require(F.int(created["_version"]))
            let path = "/notes/\(id)/data"
            let length = 8 << 20

            // The client waits for 100 Continue: it must get the 412 instead, and send nothing.
            let waiting = try RawClient(port: service.port)
            defer { waiting.close() }
            waiting.send(Self.putHead(path, length: length, "If-Match: \"\(version + 1)\"\r\nExpect: 100-continue\r\n"))
            let refused = try #require(try await Blocking.run { waiting.readResponse(informational: true) })
            #expect(refused.status == 412, "\(refused.status) \(refused.text)")
            #expect(try JSONSerialization.jsonObject(with: Data(refused.body)) as? [String: Any] != nil)
            #expect(refused.header("Connection") == "close", "the unread body is no request of its own")
            #expect(try await Blocking.run { waiting.isClosedByPeer() })

            // The client sends without waiting: the 412 comes while most of the body is unsent.
            let eager = try RawClient(port: service.port)
            defer { eager.close() }
            eager.send(Self.putHead(path, length: length, "If-Match: \"\(version + 1)\"\r\n") + String(repeating: "x", count: 64 << 10))
            let early = try #require(try await Blocking.run { eager.readResponse() }, "answered before the body ends")
            #expect(early.status == 412, "\(early.status) \(early.text)")

            #expect(try await service.sql("SELECT count(*) FROM \"_cloner_blobs\" WHERE \"size\" = -1") == "0", "no pending upload began")
            let after = try await service.client.get("/notes/\(id)")
            #expect(F.int(try after.json()["_version"]) == version)
            #expect(try await service.client.get(path).body == [0, 1, 2])

            // The current version: 100 Continue, then the body is taken.
            let current = try RawClient(port: service.port)
            defer { current.close() }
            current.send(Self.putHead(path, length: 5, "If-Match: \"\(version)\"\r\nExpect: 100-continue\r\n"))
            let proceed = try #require(try await Blocking.run { current.readResponse(informational: true) })
            #expect(proceed.status == 100)
            current.send("hello")
            let stored = try #require(try await Blocking.run { current.readResponse() })
            #expect(stored.status == 200, "\(stored.text)")
            #expect(try await service.client.get(path).text == "hello")
        }
    }

    /// One large upload's share: its unwritten chunk (1 MiB and two 64 KiB pieces) and the
    /// 256 KiB window its connection queues, with one piece past it.
    static let largeShare = (1 << 20) + 2 * (64 << 10) + (256 << 10) + (64 << 10)

    @Test(
        "past maxBufferedUploadBytes an upload is a 503 with Retry-After before its body; a small one fits beside; shares come back",
        arguments: StoreBackendKind.available)
    func budget(_ backend: StoreBackendKind) async throws {
        // The stalled upload waits for the steps between its two halves, which a loaded machine may
        // stretch past the default body timeouts: they are not what this test is about.
        let environment = [
            "CLONER_MAX_BUFFERED_UPLOAD_BYTES": "\(2 << 20)", "CLONER_HTTP_BODY_READ_TIMEOUT": "600", "CLONER_HTTP_BODY_MAX_TIMEOUT": "600",
        ]
        try await TestService.withService(backend: backend, environment: environment) { service in
            let client = service.client
            let created = try await client.create("notes", F.note(#""data":"AAEC""#))
            let path = "/notes/\(try #require(F.int(created["_id"])))/data"
            let value = BlobResourceServiceTests.bytes(3 << 20 + 7)

            // A large upload in flight, stalled part-way: it holds its share.
            let stalled = try RawClient(port: service.port, timeout: 30)
            defer { stalled.close() }
            stalled.send(Array(Self.putHead(path, length: value.count).utf8) + value[0..<(100 << 10)])
            // Bounded by a minute: a loaded machine may take seconds to hand the server those bytes.
            let held = try await client.metric("cloner_upload_buffer_bytes", settlingAt: Double(Self.largeShare), timeout: .seconds(60))
            #expect(held == Double(Self.largeShare), "the stalled upload holds \(held) bytes")

            // Another large one does not fit beside it: refused before its body, by length or chunked.
            for framing in ["Content-Length: \(value.count)\r\n", "Transfer-Encoding: chunked\r\n"] {
                let refused = try RawClient(port: service.port)
                defer { refused.close() }
                refused.send("PUT \(path) HTTP/1.1\r\nHost: x\r\n\(framing)Expect: 100-continue\r\n\r\n")
                let answer = try #require(try await Blocking.run { refused.readResponse(informational: true) })
                #expect(answer.status == 503, "\(framing): \(answer.status) \(answer.text)")
                #expect(answer.header("Retry-After") == "1", "\(framing)")
                #expect(answer.text.contains("maxBufferedUploadBytes") && answer.text.contains("service_unavailable"), "\(answer.text)")
            }
            // A small one counts its length, not a chunk: it fits.
            let small = try RawClient(port: service.port)
            defer { small.close() }
            small.send(Self.putHead(path, length: 5) + "small")
            let stored = try #require(try await Blocking.run { small.readResponse() })
            #expect(stored.status == 200, "\(stored.text)")

            // The stalled upload goes on and completes; every share comes back.
            stalled.send([UInt8](value[(100 << 10)...]))
            let finished = try #require(try await Blocking.run { stalled.readResponse() })
            #expect(finished.status == 200, "\(finished.text)")
            #expect(try await client.get(path).body == value)
            #expect(try await client.metric("cloner_upload_buffer_bytes", settlingAt: 0, timeout: .seconds(60)) == 0)
            let again = try RawClient(port: service.port, timeout: 30)
            defer { again.close() }
            again.send(Array(Self.putHead(path, length: value.count).utf8) + value)
            #expect(try await Blocking.run { again.readResponse() }?.status == 200)
        }
    }
}
