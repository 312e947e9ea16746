#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// One listening socket per server (docs/architecture.md#limits-and-admission): a second server on a port already served
/// fails at start instead of sharing it (SO_REUSEPORT would split requests between two
/// processes with different databases), while every event loop of the one server still accepts.
@Suite struct ListenerTests {
    @Test func aSecondServerOnTheSamePortFailsWithAddressInUse() throws {
        let first = try TestServer(loops: 2)
        defer { first.stop() }
        let second = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: first.port, eventLoopCount: 2), router: Router())
        do {
            try second.start()
            second.shutdown(drainTimeout: .zero)
            Issue.record("a second server started on port \(first.port)")
        } catch let error as SocketError {
            #expect(error.errno == EADDRINUSE)
            #expect(error.description.contains("address in use"), "\(error)")
            #expect(error.description.contains("127.0.0.1:\(first.port)"), "\(error)")
        }
        // The first server is untouched.
        let client = try RawClient(port: first.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
    }

    /// Every loop accepts from the one listener: while a handler blocks its loop, the other loop
    /// takes and answers a new connection. The first request holds its loop until the second is
    /// answered, so the test does not depend on how the clients happen to be scheduled (forty
    /// clients at once, as this test once sent, can arrive one after another on a loaded machine
    /// and all meet the same loop).
    @Test func everyLoopAcceptsFromTheOneListener() throws {
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let threads = LockedValue<[String: UInt]>([:])
        var router = Router()
        // Immediate handlers run on the loop thread that owns the connection.
        router.get("/hold") { _ in
            threads.withLock { $0["hold"] = UInt(pthread_self()) }
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
            return .text("held")
        }
        router.get("/free") { _ in
            threads.withLock { $0["free"] = UInt(pthread_self()) }
            return .text("free")
        }
        let server = try TestServer(router: router, loops: 2)
        defer { server.stop() }
        let held = try RawClient(port: server.port)
        held.send("GET /hold HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        try #require(entered.wait(timeout: .now() + 10) == .success, "the first request reached its handler")
        let free = try RawClient(port: server.port)
        free.send("GET /free HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = free.readResponse()
        release.signal()
        #expect(answer?.text == "free", "the second connection was answered while the first loop was held")
        #expect(held.readResponse()?.text == "held")
        let seen = threads.withLock { $0 }
        #expect(seen["hold"] != nil && seen["free"] != nil && seen["hold"] != seen["free"], "threads: \(seen)")
    }
}
