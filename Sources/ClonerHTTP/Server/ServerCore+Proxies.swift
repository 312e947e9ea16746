/// Who the client is behind a trusted proxy: which address a connection counts against once its
/// PROXY protocol header is read, and which address a request reports.
///
/// Where each address counts: the per-client connection share (`maxConnectionsPerClient`) is
/// decided per connection, so it can only use what is known per connection — the peer, or the
/// client a trusted proxy's PROXY header names. `Forwarded` / `X-Forwarded-For` arrive with each
/// request, after the connection was accepted (and one connection from a proxy carries requests of
/// many clients), so they set the request's `remoteAddress` and the access log, never the share.
extension ServerCore {
    var trustedProxies: TrustedProxies { configuration.trustedProxies }

    /// Whether a connection from `host` must start with a PROXY protocol header. Such a
    /// connection counts against no client until the header says which one: counted against the
    /// proxy meanwhile, a balancer opening more connections at once than one client's share would
    /// have them refused before any header is read.
    func expectsProxyHeader(from host: String) -> Bool {
        configuration.proxyProtocol && tls == nil && trustedProxies.contains(host: host)
    }

    /// The 503's reason for a client over its share.
    func clientShareRefusal(_ host: String) -> String {
        "client \(host) holds its limit of \(limits.maxConnectionsPerClient) open connections; retry later"
    }

    /// After a trusted proxy's PROXY header: the client address the connection counts against
    /// (nil for a header that names no client — haproxy's LOCAL health checks: they are the
    /// proxy's own, and counted against its address they would be refused, and take the server
    /// out of rotation, whenever clients on the proxy's host hold that address's share) and the
    /// `remoteAddress` its requests report. `admitted` false: the client already holds its share;
    /// nothing was counted and the connection gets the same 503 as at accept.
    func admitProxied(_ header: ProxyHeader, peerAddress: String)
        -> (counted: String?, remoteAddress: String, admitted: Bool)
    {
        guard let source = header.source else { return (nil, peerAddress, true) }
        let host = source.address.description
        return (host, source.description, admitClient(host))
    }

    /// The `remoteAddress` of a request on a connection whose client is `connectionAddress`
    /// (`10.0.0.2:41234`, `[::1]:5123`): the client its forwarding fields name when that address
    /// is a trusted proxy, else `connectionAddress`.
    func clientAddress(of headers: HTTPHeaders, connectionAddress: String) -> String {
        guard !trustedProxies.isEmpty, let peer = Self.address(of: connectionAddress),
            let client = ForwardedClient.client(in: headers, peer: peer, trusted: trustedProxies)
        else { return connectionAddress }
        return client.description
    }

    /// The address of `host:port` or `[v6]:port`.
    private static func address(of text: String) -> IPAddress? {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return IPAddress(text[text.index(after: text.startIndex)..<close])
        }
        return IPAddress(text.split(separator: ":", maxSplits: 1).first ?? "")
    }
}
