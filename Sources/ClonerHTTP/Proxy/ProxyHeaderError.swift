/// A PROXY protocol header that is malformed, of an unsupported kind, or missing where a trusted
/// proxy must send one. The connection is closed: nothing after a bad header can be trusted to be
/// where the proxy meant it to be.
public struct ProxyHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// Offset of the offending byte from the connection's first byte.
    public var offset: Int

    public init(_ reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "PROXY protocol header: \(reason) (at byte \(offset))" }
}
