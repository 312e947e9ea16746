#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Synchronization
import Testing
@testable import ClonerHTTP

@Suite struct HTTPServerTests {
    @Test func simpleGetKeepsTheConnectionOpen() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.text == "hello")
        #expect(response.header("Content-Length") == "5")
        #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        #expect(response.header("X-Request-ID")?.isEmpty == false)
        #expect(response.header("Connection") == nil)
        client.send("GET /items/42 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "item 42")
    }

    @Test func hundredsOfRequestsOnOneConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for index in 0..<500 {
            client.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.text == "item \(index)")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        // A slow deferred request first: the quick ones behind it must wait for it.
        var batch = "GET /slow?n=first HTTP/1.1\r\nHost: x\r\n\r\n"
        for index in 0..<20 { batch += "GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n" }
        batch += "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nlast"
        client.send(batch)
        #expect(client.readResponse()?.text == "slow first")
        for index in 0..<20 { #expect(client.readResponse()?.text == "item \(index)") }
        #expect(client.readResponse()?.text == "last")
    }

    /// A thousand tiny requests in one send: answered in order, without recursion per request.
    @Test func deepPipeline() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send((0..<1000).map { "GET /items/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        var inOrder = 0
        for index in 0..<1000 where client.readResponse()?.text == "item \(index)" { inOrder += 1 }
        #expect(inOrder == 1000)
    }

    @Test func requestIDIsHonouredOrGenerated() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Request-ID: abc-123\r\n\r\n")
        #expect(client.readResponse()?.header("X-Request-ID") == "abc-123")
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Request-ID: bad id with spaces\r\n\r\n")
        let generated = try #require(client.readResponse()?.header("X-Request-ID"))
        #expect(generated != "bad id with spaces")
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let next = try #require(client.readResponse()?.header("X-Request-ID"))
        #expect(next != generated)
    }

    @Test func chunkedRequestBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        client.send("5\r\nhello\r\n")
        client.send("7;ext=1\r\n, world\r\n0\r\nTrailer-Field: ignored\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.text == "hello, world")
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
    }

    @Test func expectContinue() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = try #require(client.readResponse(informational: true))
        #expect(interim.status == 100)
        client.send("data")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.text == "data")
    }

    @Test func expectContinueIsNotSentForARejectedLength() throws {
        var limits = HTTPLimits()
        limits.maxBodyLength = 10
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
        let response = try #require(client.readResponse(informational: true))
        #expect(response.status == 413)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func http10ClosesUnlessKeepAlive() throws {
        let server = try TestServer()
        defer { server.stop() }
        let plain = try RawClient(port: server.port)
        plain.send("GET /hello HTTP/1.0\r\n\r\n")
        let first = try #require(plain.readResponse())
        #expect(first.status == 200)
        #expect(first.header("Connection") == "close")
        #expect(plain.isClosedByPeer())

        let keepAlive = try RawClient(port: server.port)
        keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(keepAlive.readResponse()?.header("Connection") == "keep-alive")
        keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(keepAlive.readResponse()?.text == "hello")
    }

    @Test func connectionCloseIsHonoured() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func headAnswersWithoutBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse(isHead: true))
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "5")
        // The next response must start right away: no body bytes were sent for HEAD.
        client.send("GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "item 7")
    }

    @Test func notFoundAndMethodNotAllowed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /nothing/here HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 404)
        client.send("DELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
        // Neither closes the connection.
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
    }

    @Test func thrownErrorsBecomeResponses() async throws {
        struct Teapot: HTTPResponseError {
            func response(for request: HTTPRequest) -> HTTPResponse {
                .json(Array("{\"id\":\"\(request.id)\"}".utf8), status: HTTPStatus(418))
            }
        }
        var router = Router()
        router.get("/teapot") { _ in throw Teapot() }
        router.get("/boom") { _ in throw TestFailure() }
        router.add(
            .get, "/deferred-boom",
            deferred: { _, responder in
                DispatchQueue.global().async { responder.fail(Teapot()) }
            })
        router.add(.get, "/forgotten", deferred: { _, _ in })
        router.add(
            .get, "/async",
            async: { request in
                try await Task.sleep(for: .milliseconds(10))
                return .text("async \(request.method)")
            })
        let server = try TestServer(router: router)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /teapot HTTP/1.1\r\nHost: x\r\nX-Request-ID: r1\r\n\r\n")
        let teapot = try #require(client.readResponse())
        #expect(teapot.status == 418)
        #expect(teapot.text == "{\"id\":\"r1\"}")
        #expect(teapot.header("Content-Type") == "application/json")
        client.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n")
        let boom = try #require(client.readResponse())
        #expect(boom.status == 500)
        #expect(!boom.text.contains("TestFailure"))
        client.send("GET /deferred-boom HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 418)
        client.send("GET /forgotten HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 500)
        // The async handler runs on the cooperative pool: wait for it off the pool. Synchronous
        // tests of other suites occupy the pool's threads (two on a 2-core machine) while they
        // run, so the handler may only start once they are done: be patient.
        let port = server.port
        let text = try await Blocking.run {
            let patient = try RawClient(port: port, timeout: 300)
            patient.send("GET /async HTTP/1.1\r\nHost: x\r\n\r\n")
            return patient.readResponse()?.text
        }
        #expect(text == "async GET")
    }

    /// A record comes from the loop that served the request, and that loop's iteration-end hook
    /// runs after it before the loop waits again: what the access log buffers per loop is written
    /// by the time the client could send its next request — for a deferred answer too.
    @Test func everyLoopEndsItsIterationAfterTheRecordsItDelivered() throws {
        let loops = 3
        let pending = LockedValue<[Int: [String]]>([:])
        let flushed = LockedValue<[String]>([])
        var hooks = HTTPServer.Hooks()
        hooks.accessLog = { record in pending.withLock { $0[record.loop, default: []].append(record.requestID) } }
        hooks.onLoopIterationEnd = { loop in
            precondition((0..<loops).contains(loop), "loop \(loop)")
            let lines = pending.withLock { $0.removeValue(forKey: loop) ?? [] }
            flushed.withLock { $0.append(contentsOf: lines) }
        }
        let server = try TestServer(loops: loops, hooks: hooks)
        defer { server.stop() }
        for index in 0..<12 {
            let client = try RawClient(port: server.port)
            let path = index % 3 == 0 ? "/slow" : "/hello"
            client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nX-Request-ID: iteration-\(index)\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
            // The loop wrote the answer, then ends its iteration: the record is flushed at once.
            var seen = false
            for _ in 0..<200 {
                if flushed.withLock({ $0.contains("iteration-\(index)") }) { seen = true; break }
                usleep(1_000)
            }
            #expect(seen, "iteration-\(index) was not flushed by its loop")
        }
        #expect(pending.withLock { $0.values.allSatisfy(\.isEmpty) })
        #expect(flushed.withLock { $0.count } == 12)
    }

    @Test func hooksSeeEveryRequest() throws {
        let records = LockedValue<[HTTPAccessLogRecord]>([])
        let started = Atomic<Int>(0)
        var hooks = HTTPServer.Hooks()
        hooks.accessLog = { record in records.withLock { $0.append(record) } }
        hooks.onRequestStart = { _ in started.add(1, ordering: .relaxed) }
        hooks.errorResponse = { context in
            .json(
                Array("{\"status\":\(context.status.code),\"requestId\":\"\(context.requestID)\"}".utf8), status: context.status,
                headers: ["Content-Type": "application/problem+json"])
        }
        let server = try TestServer(hooks: hooks)
        let client = try RawClient(port: server.port)
        client.send("GET /items/9?x=1 HTTP/1.1\r\nHost: x\r\nX-Request-ID: log-1\r\n\r\n")
        _ = client.readResponse()
        client.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
        let missing = try #require(client.readResponse())
        #expect(missing.header("Content-Type") == "application/problem+json")
        #expect(missing.text.contains("\"status\":404"))
        client.send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n")
        let rejected = try #require(client.readResponse())
        #expect(rejected.status == 400)
        #expect(rejected.header("Content-Type") == "application/problem+json")
        #expect(rejected.header("Connection") == "close")
        server.stop()
        let logged = records.withLock { $0 }
        #expect(logged.map(\.status) == [200, 404, 400])
        #expect(logged.first?.path == "/items/9")
        #expect(logged.first?.route == "/items/{id}")
        #expect(logged.first?.requestID == "log-1")
        #expect(logged.first?.method == "GET")
        #expect(logged.first?.remoteAddress.hasPrefix("127.0.0.1:") == true)
        #expect((logged.first?.bytesSent ?? 0) > 6)
        #expect(started.load(ordering: .relaxed) == 2)
    }

    @Test func interceptAnswersBeforeTheHandler() throws {
        struct Unauthorized: HTTPResponseError {
            func response(for request: HTTPRequest) -> HTTPResponse {
                .text("no", status: .unauthorized, headers: ["WWW-Authenticate": "Bearer"])
            }
        }
        var hooks = HTTPServer.Hooks()
        hooks.intercept = { request in
            if request.route == "/hello" { return nil }
            if request.headers["authorization"] == "Bearer key" { return nil }
            if request.parameter("id") == "teapot" { return .text("short-circuit", status: HTTPStatus(418)) }
            throw Unauthorized()
        }
        let server = try TestServer(hooks: hooks)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        client.send("GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let denied = try #require(client.readResponse())
        #expect(denied.status == 401)
        #expect(denied.header("WWW-Authenticate") == "Bearer")
        client.send("GET /items/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer key\r\n\r\n")
        #expect(client.readResponse()?.text == "item 1")
        client.send("GET /items/teapot HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 418)
    }

    @Test func largeBodiesRoundTrip() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let body = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        client.send(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let response = try #require(client.readResponse())
        #expect(response.body.count == body.count)
        #expect(response.body == body)
    }

    @Test func ipv6Listener() throws {
        let server = try TestServer(host: "::1")
        defer { server.stop() }
        let (status, output) = try run("/usr/bin/curl", ["-s", "-m", "60", "-g", "http://[::1]:\(server.port)/hello"])
        #expect(status == 0)
        #expect(output == "hello")
    }

    @Test func curlPlain() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (status, output) = try run(
            "/usr/bin/curl",
            [
                "-s", "-m", "60", "-o", "-", "-w", " %{http_code}", "--data-binary", "payload", "-H", "Content-Type: text/plain",
                "http://127.0.0.1:\(server.port)/echo", "--next", "-s", "http://127.0.0.1:\(server.port)/items/5",
            ])
        #expect(status == 0)
        #expect(output == "payload 200item 5")
        let chunked = try run(
            "/usr/bin/curl",
            [
                "-s", "-m", "60", "-H", "Transfer-Encoding: chunked", "--data-binary", "chunky", "http://127.0.0.1:\(server.port)/echo",
            ])
        #expect(chunked.output == "chunky")
    }

    @Test func requestLimitPerConnection() throws {
        var limits = HTTPLimits()
        limits.maxRequestsPerConnection = 3
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for index in 1...3 {
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.header("Connection") == (index == 3 ? "close" : nil))
        }
        #expect(client.isClosedByPeer())
    }

    @Test func connectionLimit() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 4
        let server = try TestServer(limits: limits, loops: 1)
        defer { server.stop() }
        var clients: [RawClient] = []
        for _ in 0..<4 {
            let client = try RawClient(port: server.port)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
            clients.append(client)
        }
        let extra = try RawClient(port: server.port)
        extra.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        // Answered, not reset (ConnectionLimitTests has the details).
        #expect(extra.readResponse()?.status == 503)
        clients.removeAll()
        // Closed connections free their slots.
        var served = false
        for _ in 0..<50 where !served {
            usleep(20_000)
            let again = try RawClient(port: server.port)
            again.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            served = again.readResponse()?.status == 200
        }
        #expect(served)
    }
}
