#if canImport(Glibc)
import Glibc
#endif
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// Past the connection limits (all clients, and one client address) a new connection gets a
/// `503` with `Retry-After` and is closed — an answer a client can act on, not a bare reset.
@Suite struct ConnectionLimitTests {
    /// Waits (bounded) until the server counts `count` open connections.
    static func waitForOpenConnections(_ server: TestServer, _ count: Int) {
        for _ in 0..<500 where server.server.openConnectionCount != count { usleep(10_000) }
    }

    static func expectRefused(_ client: RawClient, sourceLocation: SourceLocation = #_sourceLocation) {
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        guard let response = client.readResponse() else {
            Issue.record("no answer past the limit, only a close", sourceLocation: sourceLocation)
            return
        }
        #expect(response.status == 503, sourceLocation: sourceLocation)
        #expect(response.header("Retry-After").flatMap(Int.init) ?? 0 >= 1, sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(response.text.contains("connections"), "\(response.text)", sourceLocation: sourceLocation)
        #expect(client.isClosedByPeer(), sourceLocation: sourceLocation)
    }

    @Test func pastTheConnectionLimitANewConnectionGets503() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 3
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let held = try (0..<3).map { _ in try RawClient(port: server.port) }
        Self.waitForOpenConnections(server, 3)
        let refused = try RawClient(port: server.port)
        Self.expectRefused(refused)
        // The held connections are served as before.
        held[0].send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(held[0].readResponse()?.status == 200)
        // A freed slot is taken again.
        held[1].send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(held[1].readResponse()?.status == 200)
        Self.waitForOpenConnections(server, 2)
        let later = try RawClient(port: server.port)
        later.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(later.readResponse()?.status == 200)
    }

    @Test func oneClientAddressHoldsAtMostItsShare() throws {
        var limits = HTTPLimits()
        limits.maxConnectionsPerClient = 2
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let held = try (0..<2).map { _ in try RawClient(port: server.port) }
        Self.waitForOpenConnections(server, 2)
        Self.expectRefused(try RawClient(port: server.port))
        #expect(server.server.openConnectionCount == 2)
        // Closing one gives the address its slot back.
        held[0].send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(held[0].readResponse()?.status == 200)
        Self.waitForOpenConnections(server, 1)
        let again = try RawClient(port: server.port)
        again.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(again.readResponse()?.status == 200)
        held[1].send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(held[1].readResponse()?.status == 200)
    }
}
