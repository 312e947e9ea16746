/// What a proxy said about a connection in its PROXY protocol header (haproxy's
/// `doc/proxy-protocol.txt`), read by `ProxyHeaderParser`.
public struct ProxyHeader: Sendable, Hashable {
    /// One end of the proxied connection.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        public var address: IPAddress
        public var port: UInt16

        public init(address: IPAddress, port: UInt16) {
            self.address = address
            self.port = port
        }

        /// `192.0.2.1:5123` or `[2001:db8::1]:5123`.
        public var description: String { address.description(port: port) }
    }

    /// 1 (the text form, §2.1) or 2 (the binary form, §2.2).
    public var version: Int
    /// The client's end as the proxy saw it; nil when the header names none: the LOCAL command
    /// (a proxy's own health check, §2.2), the `UNKNOWN` protocol (§2.1), or an unspecified or
    /// UNIX-socket family (§2.2). Then the connection's own peer address stands.
    public var source: Endpoint?
    /// The address the client connected to on the proxy; nil when `source` is.
    public var destination: Endpoint?

    public init(version: Int, source: Endpoint?, destination: Endpoint?) {
        self.version = version
        self.source = source
        self.destination = destination
    }
}
