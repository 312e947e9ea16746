import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Model, API description, probes, metrics, routing errors, problem shape, request ids, access log.
@Suite("Service: operations")
struct OperationsServiceTests {
    typealias F = EndToEndFixture

    @Test(
        "GET /model is the normalised model with an ETag; GET /openapi.yaml is the document specialised to the model and store",
        arguments: StoreBackendKind.available)
    func modelAndOpenAPI(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let model = try await client.get("/model")
            #expect(model.status == 200)
            let body = try model.json()
            let entities = try #require(body["entities"] as? [[String: Any]])
            #expect(entities.compactMap { $0["name"] as? String } == ["Note", "Item", "ItemData", "Memo", "Tag", "Attachment", "NoteDescription"])
            let memo = try #require(entities.first { $0["name"] as? String == "Memo" })
            #expect(memo["collection"] as? String == "memos", "defaults filled in")
            let tag = try #require(model.header("ETag"))
            #expect(try await client.get("/model", headers: [("If-None-Match", tag)]).status == 304)
            #expect(try await client.get("/model", headers: [("If-None-Match", "\"other\", W/\(tag)")]).status == 304)
            #expect(try await client.get("/model", headers: [("If-None-Match", "\"other\"")]).status == 200)

            let openAPI = try await client.get("/openapi.yaml")
            #expect(openAPI.status == 200)
            #expect(openAPI.text.hasPrefix("openapi: 3.1") || openAPI.text.contains("\nopenapi: 3.1"))
            #expect(openAPI.text.contains("\"/notes/{id}/clone\"") && openAPI.text.contains("NoteCreate"), "specialised to the loaded model")
            #expect(openAPI.header("Content-Type")?.contains("yaml") == true)
            // The summary names the store this deployment uses, and only that one.
            let store = backend == .postgreSQL ? "PostgreSQL" : "SQLite"
            #expect(openAPI.text.contains("  summary: Deep-copies records of an object graph stored in \(store).\n"), "\(openAPI.text.prefix(200))")
        }
    }

    @Test("probes answer 200; /metrics counts requests by route, method and status, and clones", arguments: StoreBackendKind.available)
    func probesAndMetrics(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let health = try await client.get("/healthz")
                #expect(health.status == 200)
                #expect(try health.json()["status"] as? String == "ok")
                let ready = try await client.get("/readyz")
                #expect(ready.status == 200)
                #expect(try ready.json()["status"] as? String == "ready")

                let route = #"route="/{collection}/{id}""#
                let readsBefore = try await client.metric("http_requests_total", labels: [route, #"method="GET""#, #"status="404""#])
                let clonesBefore = try await client.metric("cloner_clones_total")
                let objectsBefore = try await client.metric("cloner_objects_cloned_total")
                for _ in 0..<3 { _ = try await client.get("/notes/4242") }
                let note = try await client.create("notes", F.note(#""items":[{"name":"a"}]"#))
                #expect(try await client.post("/notes/\(F.int(note["_id"])!)/clone", nil).status == 201)

                let metrics = try await client.get("/metrics")
                #expect(metrics.status == 200)
                #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
                for name in [
                    "http_requests_total", "http_request_duration_seconds", "cloner_clones_total",
                    "cloner_objects_cloned_total", "cloner_clone_duration_seconds", "cloner_jobs_in_flight",
                ] {
                    #expect(metrics.text.contains(name), "\(name) missing from /metrics")
                }
                #expect(
                    try await client.metric("http_requests_total", labels: [route, #"method="GET""#, #"status="404""#], settlingAt: readsBefore + 3)
                        == readsBefore + 3)
                #expect(try await client.metric("cloner_clones_total", settlingAt: clonesBefore + 1) == clonesBefore + 1)
                #expect(try await client.metric("cloner_objects_cloned_total", settlingAt: objectsBefore + 2) == objectsBefore + 2)
                #expect(try await client.metric("http_request_duration_seconds_count", labels: [route]) >= 3)
                #expect(try await client.metric("cloner_jobs_in_flight", settlingAt: 0) == 0)
            }
        }
    }

    @Test(
        "404 and 405 with Allow are problems of the documented shape; X-Request-ID is honoured, generated and echoed; one access log line per request",
        arguments: StoreBackendKind.available)
    func routingErrorsProblemShapeAndRequestIDs(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let notFound = try await client.get("/a/b/c/d")
            #expect(notFound.status == 404)
            #expect(notFound.header("Content-Type") == "application/problem+json")
            let problem = try notFound.json()
            #expect(Set(problem.keys).isSuperset(of: ["type", "title", "status", "detail", "code", "requestId"]))
            #expect(F.int(problem["status"]) == 404)
            #expect(problem["code"] as? String == "not_found")
            #expect((problem["type"] as? String)?.isEmpty == false)
            #expect(problem["requestId"] as? String == notFound.header("X-Request-ID"))
            #expect(notFound.header("X-Request-ID")?.isEmpty == false, "generated")

            let wrongMethod = try await client.request("PUT", "/notes/1", body: "{}")
            #expect(wrongMethod.status == 405)
            let allow = Set((wrongMethod.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(allow.isSuperset(of: ["GET", "PATCH", "DELETE"]))
            #expect(!allow.contains("PUT"))
            #expect(try wrongMethod.json()["code"] as? String == "method_not_allowed")
            let collectionMethods = try await client.request("DELETE", "/notes")
            #expect(collectionMethods.status == 405)
            #expect(collectionMethods.header("Allow")?.contains("POST") == true)

            let chosen = "e2e-trace-\(UUID().uuidString.prefix(8))"
            let traced = try await client.get("/notes/777", headers: [("X-Request-ID", chosen)])
            #expect(traced.header("X-Request-ID") == chosen)
            #expect(try traced.json()["requestId"] as? String == chosen)
            let ok = try await client.get("/healthz", headers: [("X-Request-ID", chosen + "-ok")])
            #expect(ok.header("X-Request-ID") == chosen + "-ok")
            let unsafe = try await client.get("/healthz", headers: [("X-Request-ID", "two words")])
            #expect(unsafe.header("X-Request-ID") != "two words", "an id unfit for a log line is replaced")
            #expect(unsafe.header("X-Request-ID")?.isEmpty == false)

            // A framing error found by the HTTP layer is a problem too, and closes.
            let framing = try RawClient(port: service.port, timeout: 60)
            framing.send("GET /notes HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
            let rejected = try await framing.receiveResponse()
            #expect(rejected.status == 400)
            #expect(rejected.header("Connection")?.lowercased() == "close")
            let rejection = try rejected.json()
            #expect(rejection["code"] as? String == "bad_request")
            #expect(rejection["requestId"] as? String == rejected.header("X-Request-ID"))

            let first = try await client.get("/healthz").header("X-Request-ID")
            let second = try await client.get("/healthz").header("X-Request-ID")
            #expect(first != nil && first != second, "generated ids differ")

            // The access log line is written when the request ends: no buffering to wait for.
            let line = await service.log.jsonLine(within: .seconds(10)) { object in
                (object["requestId"] as? String ?? object["request_id"] as? String) == chosen
            }
            let logged = try #require(line, "no access log line for \(chosen) in:\n\(service.log.text)")
            #expect(logged["method"] as? String == "GET")
            #expect(logged["path"] as? String == "/notes/777")
            #expect(F.int(logged["status"]) == 404)
            #expect(logged["duration_ms"] != nil || logged["durationMs"] != nil || logged["duration"] != nil)
            #expect(logged["bytes"] != nil)
        }
    }

    @Test(
        "HTTP limits from CLONER_HTTP_*: a body over the limit is 413 with Connection: close, judged by Content-Length before it is read",
        arguments: StoreBackendKind.available)
    func bodyLimitFromEnvironment(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_HTTP_MAX_BODY_BYTES": "2048"]) { service in
            let client = service.client
            let padding = String(repeating: "x", count: 1500)
            #expect(try await client.post("/notes", F.note(#""name":"\#(padding)""#)).status == 201)
            let large = String(repeating: "y", count: 4000)
            let refused = try await client.post("/notes", F.note(#""name":"\#(large)""#))
            #expect(refused.status == 413)
            #expect(refused.header("Connection")?.lowercased() == "close")
            #expect(try refused.json()["code"] as? String == "payload_too_large")

            // Only the head is sent: the answer must come without the body.
            let connection = try RawClient(port: service.port, timeout: 20)
            connection.send("POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
            let early = try await connection.receiveResponse()
            #expect(early.status == 413)
            #expect(try await service.count("Note") == 1)
        }
    }

    @Test("curl drives create, clone and read like a runbook does", arguments: StoreBackendKind.available)
    func curlRunbook(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let base = "http://127.0.0.1:\(service.port)"
                let created = try await Curl.run([
                    "-sS", "-i", "-X", "POST", "\(base)/notes", "-H", "Content-Type: application/json",
                    "--data-binary", F.richNote(name: "curl", tag: "cli"),
                ])
                #expect(created.status == 201)
                let location = try #require(created.header("Location"))
                let cloned = try await Curl.run([
                    "-sS", "-i", "-X", "POST", "\(base)\(location)/clone", "-H", "Content-Type: application/json",
                    "-H", "Idempotency-Key: runbook-1", "--data-binary", #"{"returnIds":true}"#,
                ])
                #expect(cloned.status == 201)
                let copy = try await Curl.run(["-sS", "-i", "\(base)\(try #require(cloned.header("Location")))"])
                #expect(copy.status == 200)
                #expect(try copy.json()["name"] as? String == "curl")
                let retried = try await Curl.run([
                    "-sS", "-i", "-X", "POST", "\(base)\(location)/clone", "-H", "Content-Type: application/json",
                    "-H", "Idempotency-Key: runbook-1", "--data-binary", #"{"returnIds":true}"#,
                ])
                #expect(retried.status == 201)
                #expect(retried.body == cloned.body)
                let form = try await Curl.run(["-sS", "-i", "-X", "POST", "\(base)/notes", "-d", "name=x"])
                #expect(form.status == 415, "curl -d without a JSON Content-Type")
                #expect(try await service.count("Note") == 2)
            }
        }
    }
}
