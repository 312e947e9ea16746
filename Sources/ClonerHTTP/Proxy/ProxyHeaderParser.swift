/// Reads the PROXY protocol header (haproxy's `doc/proxy-protocol.txt`, versions 1 and 2) that a
/// trusted load balancer sends before the first byte of the client's stream, e.g. haproxy's
/// `send-proxy-v2`.
///
/// Pure and restartable: `parse` looks at the bytes received so far from the connection's first
/// byte and says `incomplete` until the whole header is there, so reads may split it anywhere.
/// Nothing is consumed until the header is complete.
///
/// The header is mandatory on a connection that expects it and absent everywhere else: §2 forbids
/// guessing whether it is present, since a client that could make the server guess could choose
/// its own address. That choice is the caller's (trusted peers only); this type only reads.
public enum ProxyHeaderParser {
    public enum Outcome: Sendable, Hashable {
        /// The bytes so far are a valid beginning of a header; more are needed.
        case incomplete
        /// A whole header, `consumed` bytes long; the client's stream starts right after it.
        case header(ProxyHeader, consumed: Int)
    }

    /// §2.2: the twelve bytes every version 2 header starts with (`\r\n\r\n\0\r\nQUIT\n`),
    /// chosen so that no valid HTTP, SMTP or version 1 stream can begin with them.
    public static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]
    /// §2.1: a version 1 header starts with `PROXY` and one space.
    static let textPrefix: [UInt8] = Array("PROXY ".utf8)
    /// §2.1: a version 1 line is at most 107 bytes, CRLF included; a receiver reads no further
    /// looking for its end.
    public static let maximumTextLength = 107
    /// §2.2 allows up to 65,535 bytes of addresses and TLVs after the 16-byte fixed part; haproxy
    /// sends a few dozen. Longer is refused, so a header always fits the connection's buffer.
    public static let maximumBinaryLength = 4096

    /// The outcome for the bytes received so far; throws when they cannot begin or be a header.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProxyHeaderError) -> Outcome {
        if bytes.isEmpty { return .incomplete }
        if isPrefix(of: signature, bytes) {
            return bytes.count < signature.count ? .incomplete : try parseBinary(bytes)
        }
        if isPrefix(of: textPrefix, bytes) {
            return bytes.count < textPrefix.count ? .incomplete : try parseText(bytes)
        }
        throw ProxyHeaderError("the connection does not start with a PROXY protocol header (version 1 or 2)", offset: 0)
    }

    /// The same for an array (tests, tools).
    public static func parse(_ bytes: [UInt8]) throws(ProxyHeaderError) -> Outcome {
        try bytes.withUnsafeBufferPointer { pointer throws(ProxyHeaderError) in try parse(pointer) }
    }

    /// Whether what was received agrees with `expected` as far as both go.
    private static func isPrefix(of expected: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = min(expected.count, bytes.count)
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return true
    }

    // MARK: Version 2 (§2.2)

    private static func parseBinary(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProxyHeaderError) -> Outcome {
        if bytes.count < 13 { return .incomplete }
        // Byte 13: the version in the high nibble (must be 2), the command in the low one.
        let versionAndCommand = bytes[12]
        guard versionAndCommand >> 4 == 0x2 else {
            throw ProxyHeaderError("version \(versionAndCommand >> 4) after the version 2 signature (only 2 exists)", offset: 12)
        }
        let command = versionAndCommand & 0x0F
        // 0x0 LOCAL, 0x1 PROXY; §2.2: any other command must be refused.
        guard command <= 0x1 else { throw ProxyHeaderError("unknown command \(command) (0 LOCAL or 1 PROXY)", offset: 12) }
        if bytes.count < 14 { return .incomplete }
        // Byte 14: the address family in the high nibble (0 UNSPEC, 1 INET, 2 INET6, 3 UNIX), the
        // transport in the low one (0 UNSPEC, 1 STREAM, 2 DGRAM); other values are invalid.
        let family = bytes[13] >> 4
        let transport = bytes[13] & 0x0F
        guard family <= 0x3 else { throw ProxyHeaderError("unknown address family \(family)", offset: 13) }
        guard transport <= 0x2 else { throw ProxyHeaderError("unknown transport protocol \(transport)", offset: 13) }
        if bytes.count < 16 { return .incomplete }
        // Bytes 15–16: how many bytes follow (addresses, then TLVs), in network order.
        let length = Int(bytes[14]) << 8 | Int(bytes[15])
        guard length <= maximumBinaryLength else {
            throw ProxyHeaderError("\(length) bytes of addresses and TLVs (at most \(maximumBinaryLength) are read)", offset: 14)
        }
        let total = 16 + length
        if bytes.count < total { return .incomplete }

        // §2.2: for LOCAL the receiver uses the connection's own addresses and skips the block,
        // whatever its family says; so does an UNSPEC family.
        guard command == 0x1 else { return .header(ProxyHeader(version: 2, source: nil, destination: nil), consumed: total) }
        let addressLength: Int
        switch family {
        case 0x1: addressLength = 12  // 4 + 4 bytes of address, 2 + 2 of port
        case 0x2: addressLength = 36  // 16 + 16, 2 + 2
        case 0x3: addressLength = 216  // two 108-byte UNIX paths
        default: addressLength = 0
        }
        guard length >= addressLength else {
            throw ProxyHeaderError("\(length) bytes after the fixed part, too few for the family's \(addressLength)-byte addresses", offset: 14)
        }
        guard family == 0x1 || family == 0x2 else {
            // UNSPEC or a UNIX socket: no IP address to use.
            return .header(ProxyHeader(version: 2, source: nil, destination: nil), consumed: total)
        }
        let size = family == 0x1 ? 4 : 16
        let base = 16
        let source = IPAddress(bytes: UnsafeBufferPointer(rebasing: bytes[base..<base + size]))!
        let destination = IPAddress(bytes: UnsafeBufferPointer(rebasing: bytes[base + size..<base + 2 * size]))!
        let sourcePort = UInt16(bytes[base + 2 * size]) << 8 | UInt16(bytes[base + 2 * size + 1])
        let destinationPort = UInt16(bytes[base + 2 * size + 2]) << 8 | UInt16(bytes[base + 2 * size + 3])
        // What follows the addresses (TLVs, §2.2.1 on) carries nothing used here and is skipped.
        return .header(
            ProxyHeader(
                version: 2, source: .init(address: source, port: sourcePort),
                destination: .init(address: destination, port: destinationPort)),
            consumed: total)
    }

    // MARK: Version 1 (§2.1)

    private static func parseText(_ bytes: UnsafeBufferPointer<UInt8>) throws(ProxyHeaderError) -> Outcome {
        // The line ends at the first CRLF, within 107 bytes; only printable ASCII and spaces before it.
        var end: Int?
        for index in 0..<min(bytes.count, maximumTextLength) {
            let byte = bytes[index]
            if byte == 0x0D {
                if index + 1 == bytes.count { return .incomplete }
                guard bytes[index + 1] == 0x0A else { throw ProxyHeaderError("CR not followed by LF", offset: index + 1) }
                end = index
                break
            }
            guard byte >= 0x20 && byte < 0x7F else {
                throw ProxyHeaderError("byte 0x\(String(byte, radix: 16)) in a version 1 header", offset: index)
            }
        }
        guard let end else {
            if bytes.count < maximumTextLength { return .incomplete }
            throw ProxyHeaderError("no CRLF within \(maximumTextLength) bytes", offset: maximumTextLength - 1)
        }
        let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        // Fields are separated by exactly one space.
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        let protocolName = fields.count > 1 ? fields[1] : ""
        // `UNKNOWN`: the proxy cannot say (e.g. not a TCP client); the rest of the line is ignored.
        if protocolName == "UNKNOWN" {
            return .header(ProxyHeader(version: 1, source: nil, destination: nil), consumed: end + 2)
        }
        guard protocolName == "TCP4" || protocolName == "TCP6" else {
            throw ProxyHeaderError("protocol \"\(protocolName)\" (TCP4, TCP6 or UNKNOWN)", offset: 6)
        }
        guard fields.count == 6 else {
            throw ProxyHeaderError("\(fields.count) space-separated fields (PROXY, protocol, 2 addresses, 2 ports)", offset: 0)
        }
        let wantsIPv4 = protocolName == "TCP4"
        var offset = fields[0].utf8.count + fields[1].utf8.count + 2
        var addresses: [IPAddress] = []
        for field in fields[2...3] {
            // TCP4 takes dotted quads, TCP6 IPv6 text; an IPv4-mapped TCP6 address reads as IPv4.
            guard field.contains(":") != wantsIPv4, let address = IPAddress(field) else {
                throw ProxyHeaderError("\"\(field)\" is not an \(wantsIPv4 ? "IPv4" : "IPv6") address", offset: offset)
            }
            addresses.append(address)
            offset += field.utf8.count + 1
        }
        var ports: [UInt16] = []
        for field in fields[4...5] {
            // Decimal 0–65535 without leading zeros.
            guard !field.isEmpty, field.count <= 5, field.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                field == "0" || field.first != "0", let port = UInt16(field)
            else {
                throw ProxyHeaderError("\"\(field)\" is not a port 0–65535", offset: offset)
            }
            ports.append(port)
            offset += field.utf8.count + 1
        }
        return .header(
            ProxyHeader(
                version: 1, source: .init(address: addresses[0], port: ports[0]),
                destination: .init(address: addresses[1], port: ports[1])),
            consumed: end + 2)
    }
}
