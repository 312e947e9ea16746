#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// The end of the drain: a request whose handler has not answered by the deadline loses its
/// connection, and the server reports it to `onRequestCut` instead of dropping it silently.
@Suite struct DrainDeadlineTests {
    @Test("the drain deadline reports the request it cuts (method, path, request id), not the ones it answered")
    func aRequestCutAtTheDeadlineIsReported() throws {
        let cut = LockedValue<[String]>([])
        let held = LockedValue<[HTTPResponder]>([])
        var router = TestServer.defaultRouter()
        // A handler that never answers: the request is still in flight when the deadline comes.
        router.add(.get, "/never", deferred: { _, responder in held.withLock { $0.append(responder) } })
        var hooks = HTTPServer.Hooks()
        hooks.onRequestCut = { request in
            cut.withLock { $0.append("\(request.method.rawValue) \(request.path) \(request.id)") }
        }
        let server = try TestServer(router: router, hooks: hooks)
        let stuck = try RawClient(port: server.port)
        stuck.send("GET /never?page=2 HTTP/1.1\r\nHost: x\r\nX-Request-ID: stuck-1\r\n\r\n")
        let answered = try RawClient(port: server.port)
        answered.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(answered.readResponse()?.status == 200)
        for _ in 0..<1000 where held.withLock({ $0.isEmpty }) { usleep(5_000) }
        #expect(held.withLock { $0.count } == 1)

        server.stop(drainTimeout: .milliseconds(200))

        #expect(cut.withLock { $0 } == ["GET /never stuck-1"])
        #expect(stuck.isClosedByPeer())
    }
}
