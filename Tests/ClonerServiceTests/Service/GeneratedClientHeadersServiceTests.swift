import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Header values as swift-openapi-generator's runtime sends them: percent-encoded as URI
/// components (`If-None-Match: "1"` leaves the client as `%221%22`). The service reads every
/// header parameter of its description (`ClientHeaderField`: If-Match, If-None-Match, If-Range,
/// Range, Prefer, Idempotency-Key, X-Request-ID) in one canonical form, decoded, so a generated
/// client and curl mean the same. And the served document names the address it was fetched from.
@Suite("Service: headers of generated clients")
struct GeneratedClientHeadersServiceTests {
    typealias F = EndToEndFixture

    /// `"3"` as the runtime encodes it.
    static func encodedTag(_ version: Int) -> String { "%22\(version)%22" }

    @Test("percent-encoded If-None-Match, If-Match, Prefer and X-Request-ID mean their decoded text")
    func percentEncodedConditionalAndPreferenceHeaders() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""name":"a","items":[{"name":"i"}]"#))
            let id = try #require(F.int(note["_id"]))
            let version = try #require(F.int(note["_version"]))

            let notModified = try await client.get("/notes/\(id)", headers: [("If-None-Match", Self.encodedTag(version))])
            #expect(notModified.status == 304, "If-None-Match \(Self.encodedTag(version)): \(notModified.status)")
            #expect(try await client.get("/notes/\(id)", headers: [("If-None-Match", Self.encodedTag(version + 1))]).status == 200)
            let model = try await client.get("/model")
            let modelTag = try #require(model.header("ETag"))
            let encodedModelTag = modelTag.replacingOccurrences(of: "\"", with: "%22")
            #expect(try await client.get("/model", headers: [("If-None-Match", encodedModelTag)]).status == 304)

            let updated = try await client.patch("/notes/\(id)", #"{"name":"b"}"#, headers: [("If-Match", Self.encodedTag(version))])
            #expect(updated.status == 200, "If-Match \(Self.encodedTag(version)): \(updated.status) \(updated.text)")
            let stale = try await client.patch("/notes/\(id)", #"{"name":"c"}"#, headers: [("If-Match", Self.encodedTag(version))])
            #expect(stale.status == 412, "a stale encoded If-Match: \(stale.status)")

            let job = try await client.post("/notes/\(id)/clone", nil, headers: [("Prefer", "respond-async%2C%20wait%3D5")])
            #expect(job.status == 202, "Prefer respond-async%2C%20wait%3D5: \(job.status) \(job.text)")
            #expect(job.header("Location")?.hasPrefix("/jobs/") == true)

            let traced = try await client.get("/notes/\(id)", headers: [("X-Request-ID", "walk%3Acreate%2F1%2Ba%3Db")])
            #expect(traced.header("X-Request-ID") == "walk:create/1+a=b")
            // Decoded, an id must still be acceptable: a control character is not echoed.
            let refused = try await client.get("/notes/\(id)", headers: [("X-Request-ID", "a%0Ab")])
            #expect(refused.header("X-Request-ID") != "a\nb" && refused.header("X-Request-ID") != "a%0Ab")
        }
    }

    @Test("values that are not in the percent-encoded form are read as written")
    func otherValuesAreReadAsWritten() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.note())
            let id = try #require(F.int(note["_id"]))
            // A `%` that starts no escape, or a character the encoder would have escaped: as written.
            #expect(try await client.patch("/notes/\(id)", #"{"name":"b"}"#, headers: [("If-Match", "%221%2")]).status == 400)
            #expect(try await client.patch("/notes/\(id)", #"{"name":"b"}"#, headers: [("If-Match", "\"%31\"")]).status == 400)
            let traced = try await client.get("/notes/\(id)", headers: [("X-Request-ID", "a:b%3A")])
            #expect(traced.header("X-Request-ID") != "a:b:", "a mixed value is not decoded")
        }
    }

    @Test("an Idempotency-Key sent encoded, then plain, is one key: the retry replays", arguments: StoreBackendKind.available)
    func idempotencyKeysAreReadCanonically(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.note())
            let id = try #require(F.int(note["_id"]))
            let encoded = try await client.post("/notes/\(id)/clone", nil, headers: [("Idempotency-Key", "order%2042%2Fa")])
            let plain = try await client.post("/notes/\(id)/clone", nil, headers: [("Idempotency-Key", "order 42/a")])
            #expect(encoded.status == 201, "\(encoded.text)")
            #expect(plain.status == 201, "\(plain.text)")
            #expect(encoded.header("Idempotent-Replayed") == nil)
            #expect(plain.header("Idempotent-Replayed") == "true", "order 42/a replays order%2042%2Fa")
            #expect(plain.body == encoded.body)
            #expect(try await service.count("Note") == 2, "one clone, not two")
            // And the other way round, with a key of its own.
            let first = try await client.post("/notes/\(id)/clone", nil, headers: [("Idempotency-Key", "k:1")])
            let second = try await client.post("/notes/\(id)/clone", nil, headers: [("Idempotency-Key", "k%3A1")])
            #expect(first.status == 201 && second.header("Idempotent-Replayed") == "true", "\(second.status) \(second.text)")
            #expect(try await service.count("Note") == 3)
            // Decoded, a key must still be one a field can carry.
            let control = try await client.post("/notes/\(id)/clone", nil, headers: [("Idempotency-Key", "a%00b")])
            #expect(control.status == 422, "\(control.status) \(control.text)")
            #expect(try control.json()["field"] as? String == "Idempotency-Key")
        }
    }

    @Test("a percent-encoded Range asks for its part: 206", arguments: StoreBackendKind.available)
    func rangesAreReadCanonically(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""data":"aGVsbG8gd29ybGQ=""#))
            let id = try #require(F.int(note["_id"]))
            let part = try await client.get("/notes/\(id)/data", headers: [("Range", "bytes%3D0-3")])
            #expect(part.status == 206, "\(part.status) \(part.text)")
            #expect(part.text == "hell")
            #expect(part.header("Content-Range") == "bytes 0-3/11")
            let tag = try #require(part.header("ETag"))
            let conditional = try await client.get(
                "/notes/\(id)/data", headers: [("Range", "bytes%3D6-"), ("If-Range", tag.replacingOccurrences(of: "\"", with: "%22"))])
            #expect(conditional.status == 206, "\(conditional.status)")
            #expect(conditional.text == "world")
        }
    }

    @Test("the served document's server is the address it was fetched from")
    func servedDocumentNamesTheRequestedAddress() async throws {
        try await TestService.withService { service in
            let document = try await service.client.get("/openapi.yaml")
            #expect(document.status == 200)
            #expect(document.text.contains("\nservers:\n  - url: http://127.0.0.1:\(service.port)\n"), "\(document.text.prefix(3000))")
        }
    }
}
