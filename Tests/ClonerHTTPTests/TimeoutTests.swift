#if canImport(Glibc)
import Glibc
#endif
import ClonerTestSupport
import Foundation
import Synchronization
import Testing
@testable import ClonerHTTP

/// Timeouts, slow clients and graceful shutdown. Timeouts are shortened to about a second and the
/// assertions use generous bounds so a loaded machine does not make them flaky.
@Suite struct TimeoutTests {
    static func shortLimits() -> HTTPLimits {
        var limits = HTTPLimits()
        limits.headerTimeout = .seconds(1)
        limits.bodyReadTimeout = .seconds(1)
        limits.idleTimeout = .seconds(1)
        return limits
    }

    @Test func headerTimeoutIsNotResetByTrickledBytes() throws {
        let server = try TestServer(limits: Self.shortLimits())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let start = ContinuousClock.now
        client.send("GET /hello HTTP/1.1\r\n")
        // One header byte every 200 ms: each byte is progress, none may extend the deadline.
        for byte in "Host: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa".utf8 {
            client.send([byte])
            usleep(200_000)
            if ContinuousClock.now - start > .seconds(4) { break }
        }
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(ContinuousClock.now - start < .seconds(8))
    }

    @Test func bodyReadTimeout() throws {
        let server = try TestServer(limits: Self.shortLimits())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        #expect(client.isClosedByPeer())
    }

    @Test func idleKeepAliveConnectionIsClosedQuietly() throws {
        let server = try TestServer(limits: Self.shortLimits())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        let start = ContinuousClock.now
        #expect(client.isClosedByPeer())
        #expect(ContinuousClock.now - start > .milliseconds(500))
    }

    /// Hundreds of stalled clients, each holding a half-sent request, cost descriptors and
    /// buffers only: a normal client keeps being served promptly.
    @Test func slowClientsDoNotBlockOthers() throws {
        var limits = HTTPLimits()
        // Every test client comes from 127.0.0.1.
        limits.maxConnectionsPerClient = 1000
        let server = try TestServer(limits: limits)
        defer { server.stop(drainTimeout: .milliseconds(100)) }
        var stalled: [RawClient] = []
        for index in 0..<300 {
            let client = try RawClient(port: server.port)
            client.send(index % 2 == 0 ? "GET /hello HTTP/1.1\r\nHost: x\r\nX-Partial: " : "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
            stalled.append(client)
        }
        let client = try RawClient(port: server.port)
        let start = ContinuousClock.now
        for index in 0..<200 {
            client.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.text == "item \(index)")
        }
        // 200 sequential requests take a few ms each at worst even on a loaded machine; a server
        // with a thread per connection would be stuck here.
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(server.server.openConnectionCount >= 300)
    }

    @Test func gracefulDrainFinishesInFlightRequests() throws {
        // Raised once the slow request has been read whole and is routed: it is in flight.
        let slowStarted = Atomic<Bool>(false)
        var hooks = HTTPServer.Hooks()
        hooks.onRequestStart = { request in if request.path == "/slow" { slowStarted.store(true, ordering: .releasing) } }
        let server = try TestServer(hooks: hooks)
        let busy = try RawClient(port: server.port)
        let idle = try RawClient(port: server.port)
        idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        busy.send("GET /slow?n=drain HTTP/1.1\r\nHost: x\r\n\r\n")
        try eventuallyBlocking("the /slow request reaching the server", timeout: .seconds(30)) { slowStarted.load(ordering: .acquiring) }
        let done = Atomic<Bool>(false)
        let thread = Thread {
            server.stop(drainTimeout: .seconds(5))
            done.store(true, ordering: .releasing)
        }
        thread.start()
        for _ in 0..<200 where !server.server.isDraining { usleep(5_000) }
        #expect(server.server.isDraining)
        let response = try #require(busy.readResponse())
        #expect(response.text == "slow drain")
        #expect(response.header("Connection") == "close")
        #expect(idle.isClosedByPeer())
        for _ in 0..<400 where !done.load(ordering: .acquiring) { usleep(10_000) }
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
        #expect(throws: ClientError.self) { _ = try RawClient(port: server.port) }
    }

    @Test func drainTimeoutBoundsShutdown() throws {
        var router = Router()
        router.add(
            .get, "/never",
            deferred: { _, responder in
                DispatchQueue.global().asyncAfter(deadline: .now() + 20) { responder.respond(.text("late")) }
            })
        let neverStarted = Atomic<Bool>(false)
        var hooks = HTTPServer.Hooks()
        hooks.onRequestStart = { request in if request.path == "/never" { neverStarted.store(true, ordering: .releasing) } }
        let server = try TestServer(router: router, hooks: hooks)
        let client = try RawClient(port: server.port)
        client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        try eventuallyBlocking("the /never request reaching the server", timeout: .seconds(30)) { neverStarted.load(ordering: .acquiring) }
        let start = ContinuousClock.now
        server.stop(drainTimeout: .milliseconds(300))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(client.readResponse() == nil)
    }

    @Test func asyncShutdownFromAsyncCode() async throws {
        let server = try TestServer()
        let port = server.port
        let status = try await Blocking.run {
            let client = try RawClient(port: port)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            return client.readResponse()?.status
        }
        #expect(status == 200)
        await server.server.shutdown(drainTimeout: .seconds(2))
        #expect(server.server.isDraining)
        #expect(throws: ClientError.self) { _ = try RawClient(port: port) }
    }

    /// A client that stops reading a large response is dropped after the write timeout instead of
    /// holding the response in memory forever.
    @Test func stalledReaderIsDroppedAfterTheWriteTimeout() throws {
        var limits = Self.shortLimits()
        limits.writeTimeout = .seconds(1)
        var router = Router()
        let big = [UInt8](repeating: 0x61, count: 32 * 1024 * 1024)
        router.get("/big") { _ in HTTPResponse(body: big) }
        let server = try TestServer(router: router, limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        var open = server.server.openConnectionCount
        for _ in 0..<600 where open > 0 {
            usleep(10_000)
            open = server.server.openConnectionCount
        }
        #expect(open == 0)
    }
}
