import Testing
@testable import ClonerHTTP

/// The PROXY protocol header, versions 2 (binary) and 1 (text), byte by byte: every split of a
/// header is `incomplete` until its last byte, then the same header; every malformed kind throws.
@Suite struct ProxyHeaderParserTests {
    static let signature = ProxyHeaderParser.signature

    /// What haproxy's `send-proxy-v2` sends for a TCP/IPv4 client 192.0.2.10:51000 connected to
    /// 198.51.100.1:8080: PROXY command, INET + STREAM, 12 address bytes.
    static let ipv4Header: [UInt8] =
        signature + [
            0x21, 0x11, 0x00, 0x0C,
            192, 0, 2, 10, 198, 51, 100, 1, 0xC7, 0x38, 0x1F, 0x90,
        ]

    static func v2(command: UInt8 = 0x1, family: UInt8, transport: UInt8 = 0x1, body: [UInt8]) -> [UInt8] {
        signature + [0x20 | command, family << 4 | transport, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// Feeds `bytes` one more byte at a time: `incomplete` for every proper prefix, then the header.
    static func parseByteByByte(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> ProxyHeaderParser.Outcome {
        for end in 0..<bytes.count {
            let outcome = try ProxyHeaderParser.parse(Array(bytes[..<end]))
            #expect(outcome == .incomplete, "prefix of \(end) bytes", sourceLocation: sourceLocation)
        }
        return try ProxyHeaderParser.parse(bytes)
    }

    static func expectError(_ bytes: [UInt8], offset: Int, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let outcome = try ProxyHeaderParser.parse(bytes)
            Issue.record("accepted: \(outcome)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation)
            #expect(error.reason.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func version2IPv4ReadByteByByte() throws {
        let request = Array("GET / HTTP/1.1\r\n".utf8)
        let outcome = try Self.parseByteByByte(Self.ipv4Header)
        let expected = ProxyHeader(
            version: 2, source: .init(address: IPAddress("192.0.2.10")!, port: 51000),
            destination: .init(address: IPAddress("198.51.100.1")!, port: 8080))
        #expect(outcome == .header(expected, consumed: 28))
        // The client's bytes after it are not part of the header.
        #expect(try ProxyHeaderParser.parse(Self.ipv4Header + request) == .header(expected, consumed: 28))
        if case .header(let header, _) = outcome { #expect(header.source?.description == "192.0.2.10:51000") }
    }

    @Test func version2IPv6WithTLVsSkipsTheTLVs() throws {
        let source = IPAddress("2001:db8::17")!.bytes
        let destination = IPAddress("2001:db8::1")!.bytes
        // A PP2_TYPE_UNIQUE_ID TLV (0x05) after the addresses (§2.2.1 on): skipped.
        let tlv: [UInt8] = [0x05, 0x00, 0x03, 0xAA, 0xBB, 0xCC]
        let bytes = Self.v2(family: 0x2, body: source + destination + [0x12, 0x67, 0x01, 0xBB] + tlv)
        let outcome = try Self.parseByteByByte(bytes)
        #expect(
            outcome
                == .header(
                    ProxyHeader(
                        version: 2, source: .init(address: IPAddress("2001:db8::17")!, port: 4711),
                        destination: .init(address: IPAddress("2001:db8::1")!, port: 443)), consumed: 16 + 36 + 6))
        if case .header(let header, _) = outcome { #expect(header.source?.description == "[2001:db8::17]:4711") }
    }

    @Test func ipv4MappedIPv6SourceReadsAsIPv4() throws {
        let mapped = IPAddress(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 203, 0, 113, 5])!
        #expect(mapped.isIPv4)
        let bytes = Self.v2(
            family: 0x2,
            body: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 203, 0, 113, 5]
                + [UInt8](repeating: 0, count: 16) + [0, 80, 0, 80])
        guard case .header(let header, _) = try ProxyHeaderParser.parse(bytes) else { Issue.record("incomplete"); return }
        #expect(header.source?.address.description == "203.0.113.5")
    }

    /// §2.2: LOCAL (a proxy's own health check) names no client, whatever its address block says.
    @Test func localCommandNamesNoClient() throws {
        let local = Self.v2(command: 0x0, family: 0x1, body: Array(Self.ipv4Header[16...]))
        #expect(try Self.parseByteByByte(local) == .header(ProxyHeader(version: 2, source: nil, destination: nil), consumed: 28))
        // haproxy's `check-send-proxy` sends LOCAL with an empty block.
        let bare = Self.v2(command: 0x0, family: 0x0, transport: 0x0, body: [])
        #expect(try Self.parseByteByByte(bare) == .header(ProxyHeader(version: 2, source: nil, destination: nil), consumed: 16))
    }

    @Test func unspecifiedAndUnixFamiliesNameNoClient() throws {
        let unspec = Self.v2(family: 0x0, transport: 0x0, body: [1, 2, 3])
        #expect(try ProxyHeaderParser.parse(unspec) == .header(ProxyHeader(version: 2, source: nil, destination: nil), consumed: 19))
        let unix = Self.v2(family: 0x3, body: [UInt8](repeating: 0x41, count: 216))
        #expect(try ProxyHeaderParser.parse(unix) == .header(ProxyHeader(version: 2, source: nil, destination: nil), consumed: 232))
    }

    @Test func malformedVersion2Headers() {
        Self.expectError(Self.signature + [0x11], offset: 12, "version 1")
        Self.expectError(Self.signature + [0x22], offset: 12, "unknown command 2")
        Self.expectError(Self.signature + [0x21, 0x41], offset: 13, "unknown address family 4")
        Self.expectError(Self.signature + [0x21, 0x13], offset: 13, "unknown transport protocol 3")
        // An INET block shorter than its 12 address bytes.
        Self.expectError(Self.v2(family: 0x1, body: [1, 2, 3, 4, 5, 6, 7, 8]), offset: 14, "too few")
        Self.expectError(Self.v2(family: 0x2, body: [UInt8](repeating: 0, count: 12)), offset: 14, "too few")
        // Longer than is read: refused as soon as the length is known, before the bytes arrive.
        Self.expectError(Self.signature + [0x21, 0x11, 0x10, 0x01], offset: 14, "at most 4096")
        // A signature that goes wrong at its last byte.
        Self.expectError(Array(Self.signature.dropLast()) + [0x0D], offset: 0, "does not start")
    }

    @Test func plainHTTPIsNoHeader() {
        Self.expectError(Array("GET / HTTP/1.1\r\n".utf8), offset: 0, "does not start")
        // Leading blank lines an HTTP parser would skip are still not a header.
        Self.expectError(Array("\r\n\r\nGET".utf8), offset: 0, "does not start")
        Self.expectError(Array("PROXZ".utf8), offset: 0, "does not start")
    }

    @Test func version1TCP4AndTCP6ReadByteByByte() throws {
        let tcp4 = Array("PROXY TCP4 192.0.2.10 198.51.100.1 51000 8080\r\n".utf8)
        #expect(
            try Self.parseByteByByte(tcp4)
                == .header(
                    ProxyHeader(
                        version: 1, source: .init(address: IPAddress("192.0.2.10")!, port: 51000),
                        destination: .init(address: IPAddress("198.51.100.1")!, port: 8080)), consumed: tcp4.count))
        let tcp6 = Array("PROXY TCP6 2001:db8::17 2001:db8::1 4711 443\r\n".utf8)
        #expect(
            try Self.parseByteByByte(tcp6)
                == .header(
                    ProxyHeader(
                        version: 1, source: .init(address: IPAddress("2001:db8::17")!, port: 4711),
                        destination: .init(address: IPAddress("2001:db8::1")!, port: 443)), consumed: tcp6.count))
        // §2.1: UNKNOWN ignores the rest of the line.
        let unknown = Array("PROXY UNKNOWN ffff:f...f:ffff 65535 65535\r\n".utf8)
        #expect(try Self.parseByteByByte(unknown) == .header(ProxyHeader(version: 1, source: nil, destination: nil), consumed: unknown.count))
        // The longest line §2.1 allows (107 bytes with CRLF) is read.
        let longest = Array(("PROXY UNKNOWN " + String(repeating: "x", count: 91) + "\r\n").utf8)
        #expect(longest.count == 107)
        #expect(try ProxyHeaderParser.parse(longest) == .header(ProxyHeader(version: 1, source: nil, destination: nil), consumed: 107))
    }

    @Test func malformedVersion1Headers() {
        Self.expectError(Array("PROXY TCP5 1.2.3.4 1.2.3.4 1 2\r\n".utf8), offset: 6, "TCP5")
        Self.expectError(Array("PROXY TCP4 1.2.3.4 1.2.3.4 1\r\n".utf8), offset: 0, "5 space-separated")
        Self.expectError(Array("PROXY TCP4  1.2.3.4 1.2.3.4 1 2\r\n".utf8), offset: 0, "7 space-separated")
        Self.expectError(Array("PROXY TCP4 2001:db8::1 1.2.3.4 1 2\r\n".utf8), offset: 11, "not an IPv4")
        Self.expectError(Array("PROXY TCP6 1.2.3.4 2001:db8::1 1 2\r\n".utf8), offset: 11, "not an IPv6")
        Self.expectError(Array("PROXY TCP4 1.2.3.4 1.2.3.999 1 2\r\n".utf8), offset: 19, "1.2.3.999")
        Self.expectError(Array("PROXY TCP4 1.2.3.4 1.2.3.4 65536 2\r\n".utf8), offset: 27, "65536")
        Self.expectError(Array("PROXY TCP4 1.2.3.4 1.2.3.4 080 2\r\n".utf8), offset: 27, "080")
        Self.expectError(Array("PROXY TCP4 1.2.3.4 1.2.3.4 80 +2\r\n".utf8), offset: 30, "+2")
        Self.expectError(Array("PROXY TCP4 1.2.3.4\n".utf8), offset: 18, "0xa")
        Self.expectError(Array("PROXY TCP4 1.2.3.4\rX".utf8), offset: 19, "CR not followed by LF")
        // No CRLF within 107 bytes: refused at the 107th, never waiting for more.
        Self.expectError(Array(("PROXY UNKNOWN " + String(repeating: "x", count: 93)).utf8), offset: 106, "no CRLF within 107")
    }
}
