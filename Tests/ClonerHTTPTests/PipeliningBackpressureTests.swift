#if canImport(Glibc)
import Glibc
#endif
import ClonerTestSupport
import Foundation
import Synchronization
import Testing
@testable import ClonerHTTP

/// A client that pipelines requests and reads nothing must not make the server queue every
/// answer: past `maxQueuedOutputBytes` of unsent output the connection's next request is neither
/// read nor run until the client drains it. Counted by the handler's own calls, not by time.
@Suite struct PipeliningBackpressureTests {
    static let answerSize = 1 << 20
    static let requests = 200

    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    static func router(calls: Calls) -> Router {
        var router = Router()
        router.get("/big/{n}") { request in
            calls.count.add(1, ordering: .relaxed)
            var body = [UInt8](repeating: UInt8(ascii: "x"), count: answerSize)
            let label = Array("answer \(request.parameter("n") ?? "?")\n".utf8)
            body.replaceSubrange(0..<label.count, with: label)
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: body)
        }
        return router
    }

    @Test func aClientThatReadsNothingHoldsOneAnswerAndTheBoundNotAllItAskedFor() throws {
        let calls = Calls()
        var limits = HTTPLimits()
        limits.maxQueuedOutputBytes = 256 * 1024
        let server = try TestServer(router: Self.router(calls: calls), limits: limits, loops: 1)
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: 30)
        var receive: Int32 = 64 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &receive, socklen_t(MemoryLayout<Int32>.size))
        var pipeline = ""
        for n in 0..<Self.requests { pipeline += "GET /big/\(n) HTTP/1.1\r\nHost: x\r\n\r\n" }
        client.send(pipeline)

        // Wait until the server stops answering (its count stands still for a second), bounded.
        var last = -1
        var still = 0
        for _ in 0..<200 where still < 10 {
            Thread.sleep(forTimeInterval: 0.1)
            let now = calls.count.load(ordering: .relaxed)
            still = now == last ? still + 1 : 0
            last = now
        }
        let held = calls.count.load(ordering: .relaxed)
        // The socket buffers of both ends absorb a few answers (a few MiB on loopback); without
        // the bound every one of the 200 (200 MiB) is made and queued.
        print("pipelining: \(held) of \(Self.requests) answers made while the client read nothing")
        #expect(held < 24, "\(held) of \(Self.requests) answers made while the client read nothing")

        // Reading now gets every answer, in order.
        var answers: [String] = []
        for _ in 0..<Self.requests {
            guard let response = client.readResponse() else { break }
            answers.append(
                String(decoding: response.body.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
                    + (response.status == 200 && response.body.count == Self.answerSize ? "" : " (bad)"))
        }
        #expect(answers == (0..<Self.requests).map { "answer \($0)" })
        #expect(calls.count.load(ordering: .relaxed) == Self.requests)
    }
}
