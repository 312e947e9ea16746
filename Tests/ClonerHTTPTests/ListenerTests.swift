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

    /// Every loop accepts from the one listener: with a handler that blocks its loop, the other
    /// loop still takes and answers new connections.
    @Test func everyLoopAcceptsFromTheOneListener() throws {
        let threads = LockedValue<Set<UInt>>([])
        var router = Router()
        router.get("/where") { _ in
            // Immediate handlers run on the loop thread that owns the connection.
            let thread = UInt(pthread_self())
            threads.withLock { _ = $0.insert(thread) }
            usleep(20_000)
            return .text("\(thread)")
        }
        let server = try TestServer(router: router, loops: 2)
        defer { server.stop() }
        let port = server.port
        let group = DispatchGroup()
        for _ in 0..<40 {
            DispatchQueue.global().async(group: group) {
                guard let client = try? RawClient(port: port) else { return }
                client.send("GET /where HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                _ = client.readResponse()
            }
        }
        group.wait()
        #expect(threads.withLock { $0.count } == 2)
    }
}
