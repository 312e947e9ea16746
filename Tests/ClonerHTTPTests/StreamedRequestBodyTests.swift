#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// FNV-1a (64 bits): enough to tell a byte-exact body from a reordered or truncated one.
struct BodyHash: Equatable, CustomStringConvertible {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private(set) var count = 0

    mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
            count += 1
        }
    }

    static func of(_ bytes: [UInt8]) -> BodyHash {
        var hash = BodyHash()
        hash.add(bytes)
        return hash
    }

    var description: String { "\(count) \(String(value, radix: 16))" }
}

/// What the streamed handlers saw, for the test thread.
final class BodyObservations: Sendable {
    let state = LockedValue<(started: Int, outcomes: [String])>((0, []))
    /// The most body bytes a handler found queued and unconsumed.
    let mostQueued = LockedValue(0)

    func noteQueued(_ body: HTTPRequestBody) {
        let queued = body.queuedBytes
        mostQueued.withLock { $0 = max($0, queued) }
    }

    func started() { state.withLock { $0.started += 1 } }
    func record(_ outcome: String) { state.withLock { $0.outcomes.append(outcome) } }
    var startedCount: Int { state.withLock { $0.started } }
    var outcomes: [String] { state.withLock { $0.outcomes } }

    /// Waits (up to 60 s) until `count` outcomes were recorded; the handler ends on its own task,
    /// on the cooperative pool, which a full parallel run on two cores can keep busy for more than
    /// the 10 s this once waited (a run failed so, the outcome not yet recorded).
    func waitForOutcomes(_ count: Int) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let current = outcomes
            if current.count >= count { return current }
            try await Task.sleep(for: .milliseconds(10))
        }
        return outcomes
    }
}

/// The body's end as a handler sees it: "end", or the error iteration threw.
func describeEnd(_ error: (any Error)?) -> String {
    switch error {
    case nil: "end"
    case let framing as HTTPRequestBody.FramingError: "framing \(framing.status.code)"
    case is HTTPRequestBody.ConnectionClosed: "closed"
    case is HTTPRequestBody.AnsweredEarly: "answered early"
    case let other?: "other \(other)"
    }
}

@Suite struct StreamedRequestBodyTests {
    static let bodyLimit = 4 << 30

    static func router(_ seen: BodyObservations = BodyObservations(), readDelay: Duration? = nil) -> Router {
        var router = Router()
        let hashing: @Sendable (HTTPRequest, HTTPRequestBody) async throws -> HTTPResponse = { request, body in
            seen.started()
            if let readDelay {
                try await Task.sleep(for: readDelay)
                seen.noteQueued(body)
            }
            var hash = BodyHash()
            var largest = 0
            do {
                for try await chunk in body {
                    hash.add(chunk)
                    largest = max(largest, chunk.count)
                }
            } catch {
                seen.record(describeEnd(error))
                throw error
            }
            seen.record("end")
            let expected = body.expectedLength.map(String.init) ?? "none"
            return .text("\(hash) largest=\(largest) expected=\(expected) inline=\(request.body.count)")
        }
        router.add(.put, "/upload", maxBodyBytes: bodyLimit, streamed: hashing)
        router.add(.put, "/small", maxBodyBytes: 1000, streamed: hashing)
        router.add(
            .put, "/early", maxBodyBytes: bodyLimit,
            streamed: { _, _ in
                seen.started()
                return HTTPResponse(status: .notFound, body: Array("no such record".utf8))
            })
        router.add(
            .put, "/count-slowly", maxBodyBytes: bodyLimit,
            streamed: { _, body in
                var count = 0
                var chunks = 0
                for try await chunk in body {
                    count += chunk.count
                    chunks += 1
                    seen.noteQueued(body)
                    if chunks % 4 == 0 { try await Task.sleep(for: .milliseconds(1)) }
                }
                return .text("\(count)")
            })
        router.add(
            .post, "/reverse", maxBodyBytes: bodyLimit,
            streamed: { _, body in
                var chunks: [[UInt8]] = []
                for try await chunk in body { chunks.append(chunk) }
                let read = chunks
                return .streaming { writer in
                    for chunk in read.reversed() { try await writer.write(chunk.reversed()) }
                }
            })
        router.get("/hello") { _ in .text("hello") }
        router.post("/echo") { request in HTTPResponse(body: request.body) }
        return router
    }

    static func payload(_ count: Int, seed: Int = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* seed) ^ ($0 >> 11)) }
    }

    // MARK: Framing

    /// A Content-Length body larger than `maxBodyLength` reaches the handler byte-exact, in chunks
    /// of at most 64 KiB, with `HTTPRequest.body` empty; the connection stays usable and the access
    /// log counts the bytes received.
    @Test func contentLengthBodyArrivesWholeAndInOrder() async throws {
        let records = LockedValue<[HTTPAccessLogRecord]>([])
        var hooks = HTTPServer.Hooks()
        hooks.accessLog = { record in records.withLock { $0.append(record) } }
        let server = try TestServer(router: Self.router(), hooks: hooks)
        defer { server.stop() }
        let body = Self.payload(12 << 20)
        let (upload, next) = try await Blocking.run {
            let client = try RawClient(port: server.port, timeout: 60)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
            client.send(body)
            let upload = client.readResponse()
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            return (upload, client.readResponse())
        }
        #expect(upload?.status == 200)
        let text = upload?.text ?? ""
        #expect(text.hasPrefix("\(BodyHash.of(body)) "))
        #expect(text.hasSuffix("expected=\(body.count) inline=0"))
        let largest = Int(text.split(separator: " ").first { $0.hasPrefix("largest=") }?.dropFirst(8) ?? "") ?? -1
        #expect(largest > 0 && largest <= 64 * 1024)
        #expect(next?.status == 200 && next?.text == "hello")
        let uploadRecord = records.withLock { $0.first { $0.path == "/upload" } }
        #expect(uploadRecord?.bytesReceived == body.count)
        #expect(uploadRecord?.route == "/upload")
    }

    /// A chunked body (odd chunk sizes, an extension, a trailer) arrives byte-exact, and the
    /// requests pipelined behind it in the same packets are answered in order: the body's end is
    /// found where the framing says, not where the handler stopped.
    @Test func chunkedBodyArrivesWholeAndPipelinedRequestsFollow() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let body = Self.payload(3_000_000, seed: 13)
        var wire = Array("PUT /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var offset = 0
        var size = 1
        while offset < body.count {
            let count = min(size, body.count - offset)
            wire += Array("\(String(count, radix: 16));piece=\(size)\r\n".utf8) + body[offset..<offset + count] + Array("\r\n".utf8)
            offset += count
            size = size * 3 + 1
        }
        wire += Array("0\r\nX-Checksum: none\r\n\r\n".utf8)
        wire += Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd".utf8)
        let wireBytes = wire
        let responses = try await Blocking.run {
            let client = try RawClient(port: server.port, timeout: 60)
            client.send(wireBytes)
            return [client.readResponse(), client.readResponse(), client.readResponse()]
        }
        #expect(responses[0]?.status == 200)
        #expect(responses[0]?.text.hasPrefix("\(BodyHash.of(body)) ") == true)
        #expect(responses[0]?.text.hasSuffix("expected=none inline=0") == true)
        #expect(responses[1]?.text == "hello")
        #expect(responses[2]?.text == "abcd")
    }

    /// A request without a body on a streamed route is dispatched whole, with an empty body that
    /// ends at once; the connection carries on.
    @Test func streamedRouteWithoutABody() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let responses = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\nPUT /upload HTTP/1.1\r\nHost: x\r\n\r\n")
            return [client.readResponse(), client.readResponse()]
        }
        #expect(responses[0]?.text == "\(BodyHash()) largest=0 expected=0 inline=0")
        #expect(responses[1]?.text == "\(BodyHash()) largest=0 expected=none inline=0")
    }

    /// A route's own limit replaces `maxBodyLength` both ways: over it by Content-Length, 413
    /// before the handler runs; a whole-body route keeps refusing past `maxBodyLength`.
    @Test func contentLengthOverTheRouteLimitIsRefusedBeforeTheHandlerRuns() async throws {
        let seen = BodyObservations()
        var limits = HTTPLimits()
        limits.maxBodyLength = 100
        let server = try TestServer(router: Self.router(seen), limits: limits)
        defer { server.stop() }
        let (refused, inLimit, wholeBody) = try await Blocking.run {
            let refused = try RawClient(port: server.port).exchange(
                "PUT /small HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n")
            let inLimit = try RawClient(port: server.port).exchange(
                "PUT /small HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "a", count: 1000))
            let wholeBody = try RawClient(port: server.port).exchange(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
            return (refused, inLimit, wholeBody)
        }
        #expect(refused?.status == 413)
        #expect(refused?.text.contains("exceeds 1000") == true)
        #expect(refused?.header("connection") == "close")
        #expect(inLimit?.status == 200)
        #expect(inLimit?.text.hasPrefix("1000 ") == true)
        #expect(wholeBody?.status == 413)
        #expect(wholeBody?.text.contains("exceeds 100") == true)
        #expect(seen.startedCount == 1)
    }

    /// A chunked body growing past the route's limit is cut mid-stream: 413 for the client, the
    /// connection closed, and the handler's iteration ends with the same 413.
    @Test func chunkedBodyPastTheRouteLimitIsCutMidStream() async throws {
        let seen = BodyObservations()
        let server = try TestServer(router: Self.router(seen))
        defer { server.stop() }
        let (response, closed) = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            client.send("258\r\n" + String(repeating: "a", count: 600) + "\r\n")
            client.send("258\r\n" + String(repeating: "b", count: 600) + "\r\n")
            return (client.readResponse(), client.isClosedByPeer())
        }
        #expect(response?.status == 413)
        #expect(response?.text.contains("exceeds 1000") == true)
        #expect(closed)
        #expect(try await seen.waitForOutcomes(1) == ["framing 413"])
    }

    /// Bad chunk framing mid-stream: 400 for the client, and the handler learns it.
    @Test func badChunkFramingEndsTheIterationWith400() async throws {
        let seen = BodyObservations()
        let server = try TestServer(router: Self.router(seen))
        defer { server.stop() }
        let response = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            client.send("5\r\nhello\r\n")
            client.send("zz\r\n")
            return client.readResponse()
        }
        #expect(response?.status == 400)
        #expect(try await seen.waitForOutcomes(1) == ["framing 400"])
    }

    // MARK: Early answers and disconnects

    /// A handler answering while most of its body is still to come: its answer goes out with
    /// `Connection: close` and the connection ends; the rest of the body is never parsed.
    @Test func answerBeforeTheBodyEndsClosesTheConnection() async throws {
        let seen = BodyObservations()
        let server = try TestServer(router: Self.router(seen))
        defer { server.stop() }
        let (response, closed) = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /early HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
            client.send(String(repeating: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", count: 2000))
            return (client.readResponse(), client.isClosedByPeer())
        }
        #expect(response?.status == 404)
        #expect(response?.text == "no such record")
        #expect(response?.header("connection") == "close")
        #expect(closed)
        #expect(seen.startedCount == 1)
    }

    /// A handler answering before a small body arrives: the rest is read and thrown away (its
    /// bytes, requests of their own, are never answered) and the connection serves the request
    /// after it.
    @Test func answerBeforeASmallBodyDiscardsItAndKeepsTheConnection() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let smuggled = String(repeating: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", count: 3000)
        let responses = try await Blocking.run {
            let client = try RawClient(port: server.port, timeout: 2)
            client.send("PUT /early HTTP/1.1\r\nHost: x\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n")
            let early = client.readResponse()
            client.send(smuggled + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nafter")
            return [early, client.readResponse(), client.readResponse()]
        }
        #expect(responses[0]?.status == 404)
        #expect(responses[0]?.header("connection") == nil)
        #expect(responses[1]?.text == "after")
        #expect(responses[2] == nil)
    }

    /// A body made of requests, sent whole, with a real request behind it, to a handler that
    /// never reads: whether the server took the whole body before the answer (and keeps the
    /// connection) or not (and closes it), the body's requests are never answered — the only
    /// answers are the handler's and, on a kept connection, the one for the request after it.
    @Test func bodyOfAnUnreadStreamedRequestIsNeverParsedAsRequests() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let smuggled = String(repeating: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", count: 3000)
        let responses = try await Blocking.run {
            let client = try RawClient(port: server.port, timeout: 2)
            client.send("PUT /early HTTP/1.1\r\nHost: x\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n")
            client.send(smuggled + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nafter")
            return [client.readResponse(), client.readResponse(), client.readResponse()]
        }
        #expect(responses[0]?.status == 404)
        if responses[0]?.header("connection") == "close" {
            #expect(responses[1] == nil)
        } else {
            #expect(responses[1]?.text == "after")
        }
        #expect(responses[2] == nil)
    }

    /// The client vanishing mid-body ends the handler's iteration with `ConnectionClosed`, and
    /// its connection slot is free again (a client limited to one connection gets the next one).
    @Test func clientGoneMidBodyEndsTheIterationAndFreesTheConnection() async throws {
        let seen = BodyObservations()
        var limits = HTTPLimits()
        limits.maxConnectionsPerClient = 1
        let server = try TestServer(router: Self.router(seen), limits: limits, loops: 1)
        defer { server.stop() }
        try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
            client.send(Self.payload(300_000))
        }
        #expect(try await seen.waitForOutcomes(1) == ["closed"])
        let next = try await Blocking.run {
            try RawClient(port: server.port).exchange("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        #expect(next?.status == 200)
    }

    /// A client that stalls mid-upload is cut by the body-read timeout (408), and the handler's
    /// iteration ends with it.
    @Test func stalledUploadTimesOut() async throws {
        let seen = BodyObservations()
        var limits = HTTPLimits()
        limits.bodyReadTimeout = .milliseconds(500)
        let server = try TestServer(router: Self.router(seen), limits: limits)
        defer { server.stop() }
        let response = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "a", count: 10))
            return client.readResponse()
        }
        #expect(response?.status == 408)
        #expect(try await seen.waitForOutcomes(1) == ["framing 408"])
    }

    /// A handler that waits before reading is not the client's fault: while the connection holds
    /// back for it, the body-read timeout does not run, and the upload completes.
    @Test func handlerPausingTheUploadDoesNotTimeTheClientOut() async throws {
        var limits = HTTPLimits()
        limits.bodyReadTimeout = .milliseconds(300)
        let seen = BodyObservations()
        let server = try TestServer(router: Self.router(seen, readDelay: .milliseconds(1200)), limits: limits)
        defer { server.stop() }
        let body = Self.payload(4 << 20)
        let response = try await Blocking.run {
            let client = try RawClient(port: server.port, timeout: 30)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
            client.send(body)
            return client.readResponse()
        }
        #expect(response?.status == 200)
        #expect(response?.text.hasPrefix("\(BodyHash.of(body)) ") == true)
        // While the handler slept the connection took in its window and a chunk, not 4 MiB.
        let queued = seen.mostQueued.withLock { $0 }
        #expect(queued > Connection.requestBodyWindow / 2)
        #expect(queued <= Connection.requestBodyWindow + Connection.requestBodyChunk)
    }

    /// A hook answering at the head (auth, admission) spares the handler and a large upload: its
    /// answer closes the connection, whose body bytes are never parsed.
    @Test func interceptAnsweringAStreamedRequestClosesWithoutRunningTheHandler() async throws {
        let seen = BodyObservations()
        var hooks = HTTPServer.Hooks()
        hooks.intercept = { request in
            request.headers["authorization"] == nil ? HTTPResponse(status: .unauthorized, body: Array("key needed".utf8)) : nil
        }
        let server = try TestServer(router: Self.router(seen), hooks: hooks)
        defer { server.stop() }
        let (refused, closed) = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            client.send(String(repeating: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", count: 100))
            return (client.readResponse(), client.isClosedByPeer())
        }
        #expect(refused?.status == 401)
        #expect(refused?.header("connection") == "close")
        #expect(closed)
        #expect(seen.startedCount == 0)
    }

    /// A streamed request answered with a streamed response once its body is read: both
    /// directions stream, and the connection carries on.
    @Test func streamedRequestAnsweredWithAStreamedResponse() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let body = Self.payload(1_500_000, seed: 5)
        let (status, output) = try await Blocking.run {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("body.bin")
            try Data(body).write(to: file)
            let out = folder.appendingPathComponent("out.bin")
            let result = try run(
                "/usr/bin/curl",
                [
                    "-s", "-m", "60", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)", "-o", out.path,
                    "http://127.0.0.1:\(server.port)/reverse",
                    "--next", "-s", "-m", "60", "-w", "%{num_connects} ", "http://127.0.0.1:\(server.port)/hello",
                ])
            return (result.status, (try Data(contentsOf: out), result.output))
        }
        #expect(status == 0)
        #expect([UInt8](output.0) == body.reversed())
        #expect(output.1 == "hello0 ")
    }

    // MARK: 100-continue

    /// `Expect: 100-continue`: 100 goes out once the handler reads (RFC 9110 §10.1.1); a handler
    /// answering at once sends its final answer instead, and the client never sends the body.
    @Test func continueIsSentWhenTheHandlerStartsReading() async throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let (interim, final, early) = try await Blocking.run {
            let client = try RawClient(port: server.port)
            client.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = client.readResponse(informational: true)
            client.send("hello")
            let final = client.readResponse()
            let other = try RawClient(port: server.port)
            other.send("PUT /early HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            return (interim, final, other.readResponse(informational: true))
        }
        #expect(interim?.status == 100)
        #expect(final?.status == 200)
        #expect(final?.text.hasPrefix("\(BodyHash.of(Array("hello".utf8))) ") == true)
        #expect(early?.status == 404)
    }

    // MARK: Memory and TLS

    /// 256 MiB into a handler that counts slowly: the connection holds back instead of buffering,
    /// so the process grows by a bounded window, not by the upload. Prints the figures;
    /// `CLONER_TEST_UPLOAD_BYTES` sets another size.
    @Test func aLargeUploadIntoASlowHandlerKeepsMemoryBounded() async throws {
        let seen = BodyObservations()
        let server = try TestServer(router: Self.router(seen))
        defer { server.stop() }
        // 1 GiB with CLONER_TEST_UPLOAD_BYTES=1073741824: the bound is the same, and a full suite
        // shares the CPU.
        let total = Int(ProcessInfo.processInfo.environment["CLONER_TEST_UPLOAD_BYTES"] ?? "") ?? 256 << 20
        let block = Self.payload(1 << 20)
        let upload = { @Sendable (bytes: Int) throws -> RawResponse? in
            let client = try RawClient(port: server.port, timeout: 120)
            client.send("PUT /count-slowly HTTP/1.1\r\nHost: x\r\nContent-Length: \(bytes)\r\n\r\n")
            for _ in 0..<(bytes >> 20) { client.send(block) }
            return client.readResponse()
        }
        let before = Self.residentBytes()
        // The first upload also starts the handler threads and their malloc arenas.
        let warmUp = try await Blocking.run { try upload(16 << 20) }
        let warm = Self.residentBytes()
        let peak = LockedValue(warm)
        let done = LockedValue(false)
        let sampler = Task.detached {
            while !done.withLock({ $0 }) {
                let now = Self.residentBytes()
                peak.withLock { $0 = max($0, now) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let started = ContinuousClock.now
        let response = try await Blocking.run { try upload(total) }
        let elapsed = ContinuousClock.now - started
        done.withLock { $0 = true }
        await sampler.value
        let highest = peak.withLock { $0 }
        print(
            "streamed \(total >> 20) MiB into a slow handler in \(elapsed): RSS \(before >> 20) MiB before, "
                + "\(warm >> 20) MiB after a 16 MiB warm-up, peak \(highest >> 20) MiB "
                + "(growth \((highest - before) >> 10) KiB in all, \((highest - warm) >> 10) KiB during the upload); "
                + "at most \(seen.mostQueued.withLock { $0 } >> 10) KiB queued for the handler")
        #expect(warmUp?.text == "\(16 << 20)")
        #expect(response?.status == 200)
        #expect(response?.text == "\(total)")
        // The bound itself: what the connection hands the handler ahead of its reads. The
        // process's RSS is printed, not asserted: the in-process service suites share this
        // process and allocate beside it (a run alone grows by under 2 MiB).
        #expect(seen.mostQueued.withLock { $0 } <= Connection.requestBodyWindow + Connection.requestBodyChunk)
    }

    /// A streamed upload over TLS (curl, which also asks for 100-continue on a large PUT).
    @Test func uploadOverTLS() async throws {
        let (folder, tls) = try TLSTests.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestServer(router: Self.router(), tls: tls)
        defer { server.stop() }
        let body = Self.payload(5_000_000, seed: 31)
        let file = folder.appendingPathComponent("upload.bin")
        try Data(body).write(to: file)
        let (status, output) = try await Blocking.run {
            try run(
                "/usr/bin/curl",
                [
                    "-s", "-m", "60", "--cacert", tls.certificateChainPath, "-T", file.path,
                    "https://localhost:\(server.port)/upload",
                ])
        }
        #expect(status == 0)
        #expect(output.hasPrefix("\(BodyHash.of(body)) "))
    }

    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kibibytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return kibibytes << 10
        }
        return 0
    }
}
