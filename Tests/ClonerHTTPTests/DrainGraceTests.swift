#if canImport(Glibc)
import Glibc
#endif
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// The drain grace: `isDraining` at once, the listener and kept-alive connections still served
/// until the grace ends, then refused.
@Suite struct DrainGraceTests {
    @Test func theListenerStaysOpenDuringTheGrace() throws {
        let server = try TestServer()
        let kept = try RawClient(port: server.port)
        kept.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(kept.readResponse()?.status == 200)
        let start = ContinuousClock.now
        let stopped = Thread { server.server.shutdown(drainTimeout: .seconds(10), grace: .milliseconds(1500)) }
        stopped.start()
        for _ in 0..<200 where !server.server.isDraining { usleep(5_000) }
        #expect(server.server.isDraining)
        // Within the grace: a kept-alive connection and a new one are both served.
        kept.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(kept.readResponse()?.text == "hello")
        let fresh = try RawClient(port: server.port)
        fresh.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(fresh.readResponse()?.text == "hello")
        #expect(ContinuousClock.now - start < .milliseconds(1500))
        // After it: idle connections are closed and new ones refused.
        #expect(kept.isClosedByPeer())
        #expect(ContinuousClock.now - start >= .milliseconds(1400))
        var refused = false
        for _ in 0..<300 where !refused {
            refused = (try? RawClient(port: server.port)) == nil
            if !refused { usleep(10_000) }
        }
        #expect(refused)
    }
}
