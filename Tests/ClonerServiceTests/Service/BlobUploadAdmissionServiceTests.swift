import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// What a `PUT /{collection}/{id}/{attribute}` is answered before its body is read
/// (docs/architecture.md#shared-blobs): a stale `If-Match` is a 412 without `100 Continue`, and
/// nothing of the body is taken or stored. Raw sockets, so every interim answer is seen.
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
}
