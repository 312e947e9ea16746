#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address as bytes, for matching peers against trusted proxies and for the
/// addresses a PROXY protocol header or a forwarding header carries.
///
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack listener reports for an
/// IPv4 peer) is kept as the IPv4 address it maps: the same client must count as one address and
/// match the same entries, whichever socket family it arrived on.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), network order.
    public let bytes: [UInt8]

    public var isIPv4: Bool { bytes.count == 4 }

    /// From raw network-order bytes (4 or 16); nil for any other length.
    public init?(bytes: some Collection<UInt8>) {
        let raw = Array(bytes)
        switch raw.count {
        case 4:
            self.bytes = raw
        case 16:
            let mapped = raw[0..<10].allSatisfy { $0 == 0 } && raw[10] == 0xFF && raw[11] == 0xFF
            self.bytes = mapped ? Array(raw[12..<16]) : raw
        default:
            return nil
        }
    }

    /// A textual address: dotted IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`), without brackets,
    /// port or zone. Nil for anything else, host names included.
    public init?(_ text: some StringProtocol) {
        let string = String(text)
        guard !string.isEmpty, string.utf8.count <= Int(INET6_ADDRSTRLEN) else { return nil }
        if string.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, string, &address) == 1 else { return nil }
            let parsed = withUnsafeBytes(of: &address) { IPAddress(bytes: $0) }
            guard let parsed else { return nil }
            self = parsed
        } else {
            var address = in_addr()
            guard inet_pton(AF_INET, string, &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        }
    }

    /// `192.0.2.1` or `2001:db8::1`, the form `inet_ntop` gives.
    public var description: String {
        var raw = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            guard let text = inet_ntop(family, &raw, buffer.baseAddress, socklen_t(buffer.count)) else { return "?" }
            return String(cString: text)
        }
    }

    /// With a port: `192.0.2.1:443` or `[2001:db8::1]:443`, as `HTTPRequest.remoteAddress` shows a peer.
    public func description(port: UInt16) -> String {
        isIPv4 ? "\(description):\(port)" : "[\(description)]:\(port)"
    }
}
