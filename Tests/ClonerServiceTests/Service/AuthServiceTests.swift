import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// API keys from CLONER_API_KEYS / CLONER_READ_API_KEYS (docs/architecture.md#authentication), including a key given
/// only as `sha256:<hex>`.
@Suite("Service: auth")
struct AuthServiceTests {
    typealias F = EndToEndFixture

    /// A key the service is only told about as `sha256:<hex>`.
    static let hashedKey = "hashed-secret"

    /// The digest comes from the openssl command, independently of the service's own SHA-256.
    static func sha256Hex(_ text: String) async throws -> String {
        try await Blocking.run { try opensslSHA256Hex(text) }
    }

    @Test("401 with WWW-Authenticate: Bearer without or with a wrong key; full and sha256 keys write; read-only keys get 403 on writes; probes stay open")
    func apiKeys() async throws {
        let digest = try await Self.sha256Hex(Self.hashedKey)
        #expect(digest.count == 64)
        let environment = [
            "CLONER_API_KEYS": "writer-key, sha256:\(digest)",
            "CLONER_READ_API_KEYS": "reader-key",
        ]
        try await TestService.withService(environment: environment) { service in
            let anonymous = service.client
            for (method, path) in [
                ("GET", "/notes"), ("POST", "/notes"), ("GET", "/model"), ("GET", "/metrics"),
                ("GET", "/openapi.yaml"), ("GET", "/jobs/x"), ("POST", "/notes/1/clone"),
            ] {
                let response = try await anonymous.request(method, path, body: method == "POST" ? "{}" : nil)
                #expect(response.status == 401, "\(method) \(path) without a key")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(try response.json()["code"] as? String == "unauthorized")
            }
            for bad in ["Bearer wrong-key", "Bearer ", "Basic d3JpdGVyLWtleTo=", "Bearer sha256:\(digest)", "writer-key"] {
                let response = try await anonymous.get("/notes", headers: [("Authorization", bad)])
                #expect(response.status == 401, "Authorization: \(bad)")
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
            #expect(try await anonymous.get("/healthz").status == 200)
            #expect(try await anonymous.get("/readyz").status == 200)

            let writer = ServiceClient(port: service.port, defaultHeaders: [("Authorization", "Bearer writer-key")])
            let hashed = ServiceClient(port: service.port, defaultHeaders: [("Authorization", "Bearer \(Self.hashedKey)")])
            let reader = ServiceClient(port: service.port, defaultHeaders: [("Authorization", "Bearer reader-key")])
            let note = try await writer.create("notes", F.note(#""name":"secured""#))
            let noteID = try #require(F.int(note["_id"]))
            #expect(try await hashed.patch("/notes/\(noteID)", #"{"name":"by hash"}"#).status == 200)
            #expect(try await hashed.post("/notes/\(noteID)/clone", nil).status == 201)

            #expect(try await reader.get("/notes/\(noteID)").status == 200)
            #expect(try await reader.get("/metrics").status == 200)
            #expect(try await reader.get("/model").status == 200)
            for (method, path, body) in [
                ("POST", "/notes", F.note()), ("PATCH", "/notes/\(noteID)", #"{"name":"x"}"#),
                ("DELETE", "/notes/\(noteID)", nil), ("POST", "/notes/\(noteID)/clone", nil),
            ] {
                let response = try await reader.request(method, path, body: body)
                #expect(response.status == 403, "\(method) \(path) with a read-only key")
                #expect(try response.json()["code"] as? String == "forbidden")
            }
            #expect(try await service.count("Note") == 2, "nothing written by rejected requests")
            #expect(try await writer.get("/notes/\(noteID)").json()["name"] as? String == "by hash")

            let viaCurl = try await Curl.run(["-sS", "-i", "http://127.0.0.1:\(service.port)/notes/\(noteID)", "-H", "Authorization: Bearer reader-key"])
            #expect(viaCurl.status == 200)
            let deniedCurl = try await Curl.run(["-sS", "-i", "http://127.0.0.1:\(service.port)/notes/\(noteID)"])
            #expect(deniedCurl.status == 401)
            #expect(deniedCurl.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
    }

    @Test(
        "Authorization or Idempotency-Key sent twice is a 400 naming the field, whichever comes first, on every route that reads it; nothing written",
        arguments: StoreBackendKind.available)
    func aFieldReadOnceIsRefusedWhenSentTwice(_ backend: StoreBackendKind) async throws {
        let environment = ["CLONER_API_KEYS": "writer-key", "CLONER_READ_API_KEYS": "reader-key"]
        try await TestService.withService(backend: backend, environment: environment) { service in
            let writer = ServiceClient(port: service.port, defaultHeaders: [("Authorization", "Bearer writer-key")])
            let noteID = try await writer.createdID("notes", F.note(#""name":"twice""#))
            let before = try await service.counts(["Note", "Item"])
            let bothKeys = [
                [("Authorization", "Bearer reader-key"), ("Authorization", "Bearer writer-key")],
                [("Authorization", "Bearer writer-key"), ("Authorization", "Bearer reader-key")],
            ]
            for headers in bothKeys {
                for (method, path, body) in [
                    ("GET", "/notes/\(noteID)", nil), ("POST", "/notes", F.note()), ("PATCH", "/notes/\(noteID)", #"{"name":"x"}"#),
                    ("POST", "/notes/\(noteID)/clone", nil), ("GET", "/notes/\(noteID)/export", nil),
                ] {
                    let response = try await service.client.request(method, path, headers: headers, body: body)
                    #expect(response.status == 400, "\(method) \(path) with two keys: \(response.status)")
                    let problem = (try? response.json()) ?? [:]
                    #expect(problem["field"] as? String == "Authorization", "\(response.text)")
                }
            }
            let twoIdempotencyKeys = [("Idempotency-Key", "a"), ("Idempotency-Key", "b")]
            let clone = try await writer.post("/notes/\(noteID)/clone", nil, headers: twoIdempotencyKeys)
            #expect(clone.status == 400, "\(clone.text)")
            #expect((try? clone.json())?["field"] as? String == "Idempotency-Key", "\(clone.text)")
            #expect(try await service.counts(["Note", "Item"]) == before, "nothing written by refused requests")
            // One of each is still served.
            #expect(try await writer.post("/notes/\(noteID)/clone", nil, headers: [("Idempotency-Key", "a")]).status == 201)
        }
    }
}
