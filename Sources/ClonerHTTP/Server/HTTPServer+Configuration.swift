#if canImport(Glibc)
import Glibc
#endif

extension HTTPServer {
    public struct Configuration: Sendable {
        /// Address to bind: an IPv4 or IPv6 literal (`127.0.0.1`, `::`, `0.0.0.0`) or a name.
        public var host: String
        /// Port to bind; 0 picks an ephemeral port (see `start()`'s result).
        public var port: Int
        /// Event loops (threads), all accepting from the server's one listener.
        public var eventLoopCount: Int
        public var limits: HTTPLimits
        /// TLS from PEM files; nil serves plain HTTP.
        public var tls: TLSConfiguration?
        /// listen(2) backlog of the listener.
        public var backlog: Int32
        /// Peers whose PROXY protocol header (with `proxyProtocol`) and `Forwarded` /
        /// `X-Forwarded-For` fields name the client; empty trusts nobody.
        public var trustedProxies: TrustedProxies
        /// Every connection from a trusted proxy starts with a PROXY protocol header (version 2,
        /// as haproxy's `send-proxy-v2`, or version 1); one without a valid header is closed.
        /// Plain HTTP only: with `tls` set, headers are not looked for.
        public var proxyProtocol: Bool

        public init(
            host: String = "127.0.0.1", port: Int = 8080, eventLoopCount: Int? = nil,
            limits: HTTPLimits = HTTPLimits(), tls: TLSConfiguration? = nil, backlog: Int32 = 1024,
            trustedProxies: TrustedProxies = TrustedProxies(), proxyProtocol: Bool = false
        ) {
            self.host = host
            self.port = port
            self.eventLoopCount = max(1, eventLoopCount ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            self.limits = limits
            self.tls = tls
            self.backlog = backlog
            self.trustedProxies = trustedProxies
            self.proxyProtocol = proxyProtocol
        }
    }
}
