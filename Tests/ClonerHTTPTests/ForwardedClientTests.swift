import Testing
@testable import ClonerHTTP

/// The client behind trusted proxies: the right-most forwarding entry that is not itself a
/// trusted proxy, and nothing at all from an untrusted peer.
@Suite struct ForwardedClientTests {
    static let trusted = try! TrustedProxies(["10.0.0.0/8", "2001:db8:ffff::/48"])
    static let proxy = IPAddress("10.0.0.2")!

    static func client(_ headers: HTTPHeaders, peer: IPAddress = proxy) -> String? {
        ForwardedClient.client(in: headers, peer: peer, trusted: trusted)?.description
    }

    @Test func xForwardedForRightMostUntrusted() {
        #expect(Self.client(["X-Forwarded-For": "203.0.113.7"]) == "203.0.113.7")
        // A client that forged an entry is still found: the forged part is left of it.
        #expect(Self.client(["X-Forwarded-For": "1.1.1.1, 203.0.113.7, 10.0.0.9"]) == "203.0.113.7")
        // Several fields read as one list, in order.
        #expect(
            Self.client([("X-Forwarded-For", "1.1.1.1"), ("x-forwarded-for", "203.0.113.8 ,10.1.1.1")].reduce(into: HTTPHeaders()) { $0.add($1.0, $1.1) })
                == "203.0.113.8")
        // Every hop trusted: the left-most.
        #expect(Self.client(["X-Forwarded-For": "10.0.0.7, 10.0.0.8"]) == "10.0.0.7")
        #expect(Self.client(["X-Forwarded-For": "[2001:db8::5]:1234, 2001:db8:ffff::1"]) == "2001:db8::5")
        #expect(Self.client(["X-Forwarded-For": "203.0.113.7:5555"]) == "203.0.113.7")
    }

    @Test func untrustedPeerOrNoFieldGivesNothing() {
        #expect(Self.client(["X-Forwarded-For": "203.0.113.7"], peer: IPAddress("192.0.2.1")!) == nil)
        #expect(Self.client(["Forwarded": "for=203.0.113.7"], peer: IPAddress("192.0.2.1")!) == nil)
        #expect(Self.client([:]) == nil)
        #expect(ForwardedClient.client(in: ["X-Forwarded-For": "203.0.113.7"], peer: Self.proxy, trusted: TrustedProxies()) == nil)
    }

    @Test func unnamedHopStopsTheWalk() {
        // The nearest proxy could not name its client: its own address (the peer) stands.
        #expect(Self.client(["X-Forwarded-For": "203.0.113.7, garbage"]) == nil)
        #expect(Self.client(["Forwarded": "for=203.0.113.7, for=unknown"]) == nil)
        // A trusted proxy whose own client was unnamed: that proxy is the last address read.
        #expect(Self.client(["X-Forwarded-For": "203.0.113.7, unknown, 10.0.0.9"]) == "10.0.0.9")
        #expect(Self.client(["Forwarded": "for=_hidden, for=10.0.0.9"]) == "10.0.0.9")
    }

    /// RFC 7239 §4 and §6 forms; `Forwarded` wins over `X-Forwarded-For`.
    @Test func forwardedSyntax() {
        #expect(Self.client(["Forwarded": "for=192.0.2.60;proto=http;by=203.0.113.43"]) == "192.0.2.60")
        #expect(Self.client(["Forwarded": #"For="[2001:db8:cafe::17]:4711""#]) == "2001:db8:cafe::17")
        #expect(Self.client(["Forwarded": "for=192.0.2.43, for=198.51.100.17;by=10.0.0.2"]) == "198.51.100.17")
        #expect(Self.client(["Forwarded": #"proto=https;for="192.0.2.44:8443", for=10.0.0.3"#]) == "192.0.2.44")
        // A quoted value may hold the separators.
        #expect(Self.client(["Forwarded": #"host="a,b;c";for=192.0.2.45"#]) == "192.0.2.45")
        // An element without `for` names nobody.
        #expect(Self.client(["Forwarded": "for=192.0.2.46, proto=https"]) == nil)
        #expect(Self.client(["Forwarded": "for=192.0.2.47", "X-Forwarded-For": "198.51.100.1"]) == "192.0.2.47")
        // Unbracketed IPv6 with a port, or a bad port, is no address.
        #expect(Self.client(["Forwarded": #"for="[2001:db8::1]:x""#]) == nil)
    }
}
