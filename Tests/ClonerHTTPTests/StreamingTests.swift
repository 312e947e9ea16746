#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// What the endless producer did, shared with the test thread.
final class StreamProgress: Sendable {
    let state = LockedValue<(written: Int, failed: Bool)>((0, false))
}

@Suite struct StreamingTests {
    static func piece(_ index: Int) -> [UInt8] {
        Array(String(repeating: "\(index % 10)", count: 10_000).utf8)
    }

    static func router(progress: StreamProgress? = nil) -> Router {
        var router = Router()
        router.get("/stream") { _ in
            .streaming(headers: ["Content-Type": "text/plain"]) { writer in
                for index in 0..<100 { try await writer.write(piece(index)) }
            }
        }
        router.get("/endless") { _ in
            .streaming { writer in
                do {
                    for index in 0..<10_000 {
                        try await writer.write(piece(index))
                        progress?.state.withLock { $0.written += 10_000 }
                    }
                } catch {
                    progress?.state.withLock { $0.failed = true }
                    throw error
                }
            }
        }
        router.get("/broken") { _ in
            .streaming { writer in
                try await writer.write("partial")
                throw TestFailure()
            }
        }
        router.get("/sized") { _ in
            .streaming(headers: ["Content-Type": "text/plain"], length: 1_000_000) { writer in
                for index in 0..<100 { try await writer.write(piece(index)) }
            }
        }
        // Fewer bytes than announced, by returning early or by throwing; more than announced.
        router.get("/sized-short") { _ in .streaming(length: 100) { writer in try await writer.write("partial") } }
        router.get("/sized-broken") { _ in
            .streaming(length: 100) { writer in
                try await writer.write("partial")
                throw TestFailure()
            }
        }
        router.get("/sized-over") { _ in .streaming(length: 5) { writer in try await writer.write("partial") } }
        router.get("/hello") { _ in .text("hello") }
        return router
    }

    @Test func streamedBodyIsChunkedAndKeepsTheConnection() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let (status, output) = try await Blocking.run {
            try run(
                "/usr/bin/curl",
                [
                    "-s", "-m", "60", "-D", "-", "\(base)/stream", "-w", "%{num_connects}",
                    "--next", "-s", "-m", "60", "\(base)/hello", "-w", " %{num_connects}",
                ])
        }
        #expect(status == 0)
        let expected = (0..<100).map { String(decoding: Self.piece($0), as: UTF8.self) }.joined()
        #expect(output.contains("Transfer-Encoding: chunked"))
        #expect(output.contains("\r\n\r\n" + expected + "1hello 0"))
    }

    /// The server's async work runs on its own executor: with every thread of the process's
    /// cooperative pool blocked (as an embedding application or side-by-side tests may block it),
    /// a streamed body and an async handler still answer. On the pool they waited for the
    /// blockers, and curl timed out mid-body.
    @Test func streamsAndAsyncHandlersDoNotWaitForABlockedCooperativePool() async throws {
        var router = Self.router()
        router.add(
            .get, "/async",
            async: { _ in
                try await Task.sleep(for: .milliseconds(10))
                return .text("async")
            })
        let server = try TestServer(router: router)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let release = DispatchSemaphore(value: 0)
        let blocked = LockedValue(0)
        let blockers = 2 * ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<blockers { Task.detached { Self.block(on: release, counting: blocked) } }
        let (status, output) = try await Blocking.run {
            // Once the pool's threads (one per core) are all blocked, ask, then let them go
            // (from here: this test's own continuation needs the pool back). Suites running beside
            // this one may hold pool threads themselves, which blocks the pool all the same: the
            // wait is bounded and asks anyway when it runs out.
            defer { for _ in 0..<blockers { release.signal() } }
            try? eventuallyBlocking("the cooperative pool blocked", timeout: .seconds(5)) {
                blocked.withLock { $0 } >= ProcessInfo.processInfo.activeProcessorCount
            }
            return try run(
                "/usr/bin/curl",
                [
                    "-s", "-m", "10", "--http1.0", "\(base)/stream", "--next", "-s", "-m", "10", "\(base)/async",
                ])
        }
        #expect(status == 0, "curl exit status (28: timed out)")
        #expect(output.utf8.count == 1_000_000 + "async".utf8.count)
        #expect(output.hasSuffix("async"))
    }

    private static func block(on semaphore: DispatchSemaphore, counting blocked: LockedValue<Int>) {
        blocked.withLock { $0 += 1 }
        semaphore.wait()
    }

    @Test func http10GetsACloseDelimitedBody() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/stream"
        let (status, output) = try await Blocking.run { try run("/usr/bin/curl", ["-s", "-m", "60", "--http1.0", url]) }
        #expect(status == 0)
        #expect(output.utf8.count == 1_000_000)
    }

    @Test func slowReaderSuspendsTheProducerAndCloseStopsIt() async throws {
        let progress = StreamProgress()
        let server = try TestServer(router: Self.router(progress: progress))
        defer { server.stop() }
        var client: RawClient? = try RawClient(port: server.port)
        var receive: Int32 = 4096
        setsockopt(client!.fd, SOL_SOCKET, SO_RCVBUF, &receive, socklen_t(MemoryLayout<Int32>.size))
        client?.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        // Without reading, the producer must stall: the 100 MB body cannot all be queued. It has
        // stalled once its count stands still for half a second (bounded).
        var stalledAt = -1
        var still = 0
        for _ in 0..<200 where still < 10 {
            try await Task.sleep(for: .milliseconds(50))
            let now = progress.state.withLock { $0.written }
            still = now == stalledAt && now > 0 ? still + 1 : 0
            stalledAt = now
        }
        #expect(still >= 10, "the producer never stood still")
        #expect(stalledAt < 20_000_000)
        client = nil
        var failed = false
        for _ in 0..<500 where !failed {
            try await Task.sleep(for: .milliseconds(10))
            failed = progress.state.withLock { $0.failed }
        }
        #expect(failed)
    }

    @Test func failingProducerCutsTheConnection() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/broken"
        let (status, _) = try await Blocking.run { try run("/usr/bin/curl", ["-s", "-m", "60", url]) }
        // curl reports a transfer closed with outstanding chunked data (18) rather than success.
        #expect(status != 0)
    }

    @Test func aStreamOfKnownLengthCarriesContentLengthAndKeepsTheConnection() throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /sized HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "1000000")
        #expect(response.header("Transfer-Encoding") == nil)
        #expect(response.body == (0..<100).flatMap { Self.piece($0) })
        client.send("HEAD /sized HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try #require(client.readResponse(isHead: true))
        #expect(head.header("Content-Length") == "1000000" && head.header("Transfer-Encoding") == nil)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
    }

    /// A body of known length has no end marker of its own: one short of its Content-Length must
    /// end with the connection, or the client would wait for the rest or take it as whole.
    @Test(arguments: ["/sized-short", "/sized-broken", "/sized-over"])
    func aStreamThatBreaksItsContentLengthCutsTheConnection(_ path: String) throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        let received = String(decoding: try client.receiveToEnd(), as: UTF8.self)
        let parts = received.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2, "\(received)")
        #expect(parts[0].contains(path == "/sized-over" ? "Content-Length: 5" : "Content-Length: 100"), "\(received)")
        #expect(!parts[0].lowercased().contains("connection: close"), "the head promised a reusable connection")
        // What was written within the length went out; nothing past it did.
        #expect(parts.last == (path == "/sized-over" ? "" : "partial"), "\(received)")
    }

    @Test func headOfAStreamedResponseHasNoBody() throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse(isHead: true))
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding") == "chunked")
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
    }
}
