/// The peers whose word about the client is taken: the PROXY protocol header they send first
/// on a connection, and the `Forwarded` / `X-Forwarded-For` fields of their requests. Anyone else
/// could put any address there, so from any other peer both are ignored (a PROXY header from an
/// untrusted peer is not even looked for: it reaches the HTTP parser as the garbage it is).
///
/// Entries are addresses (`10.0.0.7`, `2001:db8::7`) or CIDR ranges (`10.0.0.0/8`,
/// `2001:db8::/32`). Empty — the default — trusts nobody.
public struct TrustedProxies: Sendable, Hashable, CustomStringConvertible {
    /// One address or range: `network` with its first `prefixLength` bits significant.
    public struct Range: Sendable, Hashable, CustomStringConvertible {
        public let network: IPAddress
        public let prefixLength: Int

        public func contains(_ address: IPAddress) -> Bool {
            guard address.bytes.count == network.bytes.count else { return false }
            var bits = prefixLength
            for index in network.bytes.indices where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if address.bytes[index] & mask != network.bytes[index] { return false }
                bits -= 8
            }
            return true
        }

        public var description: String {
            prefixLength == network.bytes.count * 8 ? network.description : "\(network)/\(prefixLength)"
        }
    }

    /// Why an entry is not an address or range; `entry` is the text as configured.
    public struct EntryError: Error, Sendable, CustomStringConvertible {
        public var entry: String
        public var reason: String
        public var description: String { "\"\(entry)\": \(reason)" }
    }

    public let ranges: [Range]

    /// Trusts nobody.
    public init() { ranges = [] }

    /// Parses each entry; spaces around an entry are ignored, an empty entry is an error.
    public init(_ entries: [String]) throws(EntryError) {
        var ranges: [Range] = []
        for raw in entries {
            let entry = raw.trimmingASCIISpaces()
            var addressText = Substring(entry)
            var prefix: Int?
            if let slash = entry.firstIndex(of: "/") {
                addressText = entry[..<slash]
                let digits = entry[entry.index(after: slash)...]
                guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits) else {
                    throw EntryError(entry: raw, reason: "the prefix length after / must be a number")
                }
                prefix = value
            }
            guard let address = IPAddress(addressText) else {
                throw EntryError(entry: raw, reason: "expected an IPv4 or IPv6 address, optionally with a /prefix length (CIDR)")
            }
            let width = address.bytes.count * 8
            let length = prefix ?? width
            guard length <= width else {
                throw EntryError(entry: raw, reason: "the prefix length must be 0–\(width) for an IPv\(address.isIPv4 ? 4 : 6) address")
            }
            let range = Range(network: address, prefixLength: length)
            // Bits set past the prefix usually mean a typo in the prefix or the address.
            let masked = Self.masked(address, prefixLength: length)
            guard masked == address else {
                throw EntryError(entry: raw, reason: "address bits are set past the prefix; the range is \(masked)/\(length)")
            }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// For a textual address such as `SocketAddress.host` gives; false for anything unparsable.
    public func contains(host: String) -> Bool {
        guard !ranges.isEmpty, let address = IPAddress(host) else { return false }
        return contains(address)
    }

    public var description: String { ranges.map(\.description).joined(separator: ", ") }

    private static func masked(_ address: IPAddress, prefixLength: Int) -> IPAddress {
        var bits = prefixLength
        var bytes = address.bytes
        for index in bytes.indices {
            let mask: UInt8 = bits >= 8 ? 0xFF : (bits <= 0 ? 0 : ~(0xFF >> UInt8(bits)))
            bytes[index] &= mask
            bits -= 8
        }
        return IPAddress(bytes: bytes)!
    }
}

extension String {
    fileprivate func trimmingASCIISpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
