#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// Behind a trusted load balancer the client counts: the real server on 127.0.0.1, raw clients
/// connecting from 127.0.0.1 (the trusted proxy) or 127.0.0.2 (anyone else).
@Suite struct ProxyProtocolTests {
    static let proxy = "127.0.0.1"
    static let stranger = "127.0.0.2"

    /// The server's view of each request: what the handler saw and what the access log wrote.
    final class Observed: Sendable {
        let accessLog = LockedValue<[String]>([])
        let rejectedHeaders = LockedValue<[String]>([])

        var hooks: HTTPServer.Hooks {
            var hooks = HTTPServer.Hooks()
            hooks.accessLog = { [accessLog] record in accessLog.withLock { $0.append("\(record.status) \(record.remoteAddress)") } }
            hooks.proxyHeaderRejected = { [rejectedHeaders] peer, error in rejectedHeaders.withLock { $0.append("\(peer) \(error.reason)") } }
            return hooks
        }

        var lastLogLine: String? { accessLog.withLock { $0.last } }
    }

    static func router() -> Router {
        var router = TestServer.defaultRouter()
        router.get("/whoami") { request in .text(request.remoteAddress) }
        return router
    }

    static func server(
        _ observed: Observed, proxyProtocol: Bool = true, limits: HTTPLimits = HTTPLimits()
    ) throws -> TestServer {
        try TestServer(
            router: router(), limits: limits, hooks: observed.hooks,
            trustedProxies: TrustedProxies([proxy]), proxyProtocol: proxyProtocol)
    }

    /// A version 2 PROXY header (as haproxy's `send-proxy-v2`) for a TCP/IPv4 client.
    static func header(client: String, port: UInt16, command: UInt8 = 0x1) -> [UInt8] {
        let source = IPAddress(client)!.bytes
        return ProxyHeaderParser.signature + [0x20 | command, 0x11, 0x00, 0x0C] + source + [127, 0, 0, 1]
            + [UInt8(port >> 8), UInt8(port & 0xFF), 0x1F, 0x90]
    }

    static let whoami = "GET /whoami HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Local port of a client's socket, to recognise its own address in answers.
    static func localPort(_ client: RawClient) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client.fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aTrustedProxysHeaderNamesTheClientEvenSplitByteByByte() throws {
        let observed = Observed()
        let server = try Self.server(observed)
        defer { server.stop() }
        let client = try RawClient(port: server.port, source: Self.proxy)
        // The header in single bytes, each its own segment: every read sees a part of it.
        for byte in Self.header(client: "203.0.113.7", port: 40000) {
            client.send([byte])
            usleep(1000)
        }
        client.send(Self.whoami)
        let response = client.readResponse()
        #expect(response?.status == 200)
        #expect(response?.text == "203.0.113.7:40000")
        #expect(observed.lastLogLine == "200 203.0.113.7:40000")
        // Later requests on the connection are the same client's.
        client.send(Self.whoami + Self.whoami)
        #expect(client.readResponse()?.text == "203.0.113.7:40000")
        #expect(client.readResponse()?.text == "203.0.113.7:40000")
        // Version 1, as `curl --haproxy-protocol` sends it, in the same packet as the request.
        let textual = try RawClient(port: server.port, source: Self.proxy)
        textual.send("PROXY TCP4 198.51.100.4 127.0.0.1 5555 8080\r\n" + Self.whoami)
        #expect(textual.readResponse()?.text == "198.51.100.4:5555")
        #expect(observed.rejectedHeaders.withLock { $0 }.isEmpty)
    }

    /// A header from anyone but a trusted proxy is not looked for: the HTTP parser sees bytes
    /// that are no request line and answers 400.
    @Test func anUntrustedPeersHeaderIsABadRequest() throws {
        let observed = Observed()
        let server = try Self.server(observed)
        defer { server.stop() }
        let client = try RawClient(port: server.port, source: Self.stranger)
        client.send(Self.header(client: "203.0.113.7", port: 40000) + Array(Self.whoami.utf8))
        let response = client.readResponse()
        #expect(response?.status == 400)
        #expect(response?.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(observed.lastLogLine == "400 \(Self.stranger):\(Self.localPort(client))")
        // Without a header the stranger is served as itself.
        let plain = try RawClient(port: server.port, source: Self.stranger)
        plain.send(Self.whoami)
        #expect(plain.readResponse()?.text == "\(Self.stranger):\(Self.localPort(plain))")
    }

    /// §2 of the PROXY protocol: a receiver configured for it never guesses — a trusted peer's
    /// connection without a valid header is closed, unanswered, and the rejection reported.
    @Test func aTrustedPeerWithoutAValidHeaderIsClosed() throws {
        let observed = Observed()
        let server = try Self.server(observed)
        defer { server.stop() }
        let missing = try RawClient(port: server.port, source: Self.proxy)
        missing.send(Self.whoami)
        #expect(missing.isClosedByPeer())
        var broken = Self.header(client: "203.0.113.7", port: 40000)
        broken[12] = 0x31  // version 3
        let malformed = try RawClient(port: server.port, source: Self.proxy)
        malformed.send(broken + Array(Self.whoami.utf8))
        #expect(malformed.isClosedByPeer())
        let rejected = observed.rejectedHeaders.withLock { $0 }
        #expect(rejected.count == 2)
        #expect(rejected.contains { $0.hasPrefix("\(Self.proxy):\(Self.localPort(missing)) the connection does not start") }, "\(rejected)")
        #expect(rejected.contains { $0.contains("version 3") }, "\(rejected)")
        #expect(observed.accessLog.withLock { $0 }.isEmpty, "nothing was answered")
    }

    /// LOCAL (haproxy's `check-send-proxy` health check) names no client: the proxy's own
    /// address stands for the request, and the connection counts against no client's share — a
    /// health check is never refused because clients on the proxy's host hold that address's share.
    @Test func aLocalHeaderKeepsTheProxysAddressAndCountsAgainstNoShare() throws {
        var limits = HTTPLimits()
        limits.maxConnectionsPerClient = 1
        let observed = Observed()
        let server = try Self.server(observed, limits: limits)
        defer { server.stop() }
        // A client on the proxy's own host holds 127.0.0.1's whole share.
        let local = try RawClient(port: server.port, source: Self.proxy)
        local.send(Self.header(client: Self.proxy, port: 999) + Array(Self.whoami.utf8))
        #expect(local.readResponse()?.text == "\(Self.proxy):999")
        let checks = try (0..<2).map { _ in try RawClient(port: server.port, source: Self.proxy) }
        for check in checks {
            check.send(ProxyHeaderParser.signature + [0x20, 0x00, 0x00, 0x00] + Array(Self.whoami.utf8))
            #expect(check.readResponse()?.text == "\(Self.proxy):\(Self.localPort(check))")
        }
    }

    /// The per-client share counts the client each header names, not the proxy every connection
    /// comes from: the proxy holds more connections than one client's share, a client past its
    /// share gets the usual 503, and a closed connection gives the client its slot back.
    @Test func thePerClientShareCountsTheClientTheHeaderNames() throws {
        var limits = HTTPLimits()
        limits.maxConnectionsPerClient = 2
        let observed = Observed()
        let server = try Self.server(observed, limits: limits)
        defer { server.stop() }
        func connect(_ client: String, port: UInt16) throws -> RawClient {
            let connection = try RawClient(port: server.port, source: Self.proxy)
            connection.send(Self.header(client: client, port: port))
            return connection
        }
        // Five connections from the proxy, for three clients: more than the share of 2.
        let held = try [("203.0.113.1", 1), ("203.0.113.1", 2), ("203.0.113.2", 3), ("203.0.113.3", 4), ("203.0.113.3", 5)]
            .map { try connect($0.0, port: UInt16($0.1)) }
        for connection in held {
            connection.send(Self.whoami)
            #expect(connection.readResponse()?.status == 200)
        }
        #expect(server.server.openConnectionCount == 5)
        // A third connection of 203.0.113.1: refused as at accept, and counted nowhere.
        let third = try connect("203.0.113.1", port: 6)
        ConnectionLimitTests.expectRefused(third)
        #expect(observed.lastLogLine == "503 203.0.113.1:6")
        ConnectionLimitTests.waitForOpenConnections(server, 5)
        #expect(server.server.openConnectionCount == 5)
        // Another client still gets in.
        let other = try connect("203.0.113.4", port: 7)
        other.send(Self.whoami)
        #expect(other.readResponse()?.text == "203.0.113.4:7")
        // One of 203.0.113.1's connections closes: its slot is free again.
        held[0].send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(held[0].readResponse()?.status == 200)
        ConnectionLimitTests.waitForOpenConnections(server, 5)
        let again = try connect("203.0.113.1", port: 8)
        again.send(Self.whoami)
        #expect(again.readResponse()?.text == "203.0.113.1:8")
    }

    /// `X-Forwarded-For` / `Forwarded` name the client only when a trusted proxy sent them.
    @Test func forwardedForCountsOnlyFromTrustedPeers() throws {
        let observed = Observed()
        let server = try Self.server(observed, proxyProtocol: false)
        defer { server.stop() }
        let request = "GET /whoami HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 192.0.2.99, 198.51.100.9\r\n\r\n"
        let trusted = try RawClient(port: server.port, source: Self.proxy)
        trusted.send(request)
        #expect(trusted.readResponse()?.text == "198.51.100.9")
        #expect(observed.lastLogLine == "200 198.51.100.9")
        trusted.send("GET /hello HTTP/1.1\r\nHost: x\r\nForwarded: for=\"[2001:db8::9]:443\"\r\n\r\n")
        #expect(trusted.readResponse()?.status == 200)
        #expect(observed.lastLogLine == "200 2001:db8::9")
        // The same fields from a peer nobody trusts change nothing.
        let stranger = try RawClient(port: server.port, source: Self.stranger)
        stranger.send(request)
        let own = "\(Self.stranger):\(Self.localPort(stranger))"
        #expect(stranger.readResponse()?.text == own)
        #expect(observed.lastLogLine == "200 \(own)")
        // Without proxyProtocol a trusted peer sends no header: its requests are plain HTTP.
        let plain = try RawClient(port: server.port, source: Self.proxy)
        plain.send(Self.whoami)
        #expect(plain.readResponse()?.text == "\(Self.proxy):\(Self.localPort(plain))")
    }

    /// Behind a PROXY header, forwarding fields count only when the client it names is itself a
    /// trusted proxy (a chain of proxies); a client naming someone else is ignored.
    @Test func forwardedForAfterAProxyHeaderCountsOnlyForATrustedClient() throws {
        let observed = Observed()
        let server = try Self.server(observed)
        defer { server.stop() }
        let request = "GET /whoami HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.9\r\n\r\n"
        let fromClient = try RawClient(port: server.port, source: Self.proxy)
        fromClient.send(Self.header(client: "203.0.113.7", port: 40000) + Array(request.utf8))
        #expect(fromClient.readResponse()?.text == "203.0.113.7:40000")
        let fromChain = try RawClient(port: server.port, source: Self.proxy)
        fromChain.send(Self.header(client: Self.proxy, port: 40001) + Array(request.utf8))
        #expect(fromChain.readResponse()?.text == "198.51.100.9")
    }
}
