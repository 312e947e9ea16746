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

    /// After a trusted proxy's PROXY header: the address the connection counts against (the
    /// named client, or the proxy itself for a header that names none — a LOCAL health check)
    /// and the `remoteAddress` its requests report. `admitted` false: that address already holds
    /// its share; nothing was counted and the connection gets the same 503 as at accept.
    func admitProxied(_ header: ProxyHeader, peerHost: String, peerAddress: String)
        -> (host: String, remoteAddress: String, admitted: Bool)
    {
        let host = header.source.map { $0.address.description } ?? peerHost
        let remote = header.source?.description ?? peerAddress
        return (host, remote, admitClient(host))
    }

    /// The `remoteAddress` of a request arriving from `hop` (the address the connection counts
    /// against): the client its forwarding fields name when `hop` is a trusted proxy, else
    /// `connectionAddress`.
    func clientAddress(of headers: HTTPHeaders, hop: String?, connectionAddress: String) -> String {
        guard !trustedProxies.isEmpty, let hop, let peer = IPAddress(hop),
              let client = ForwardedClient.client(in: headers, peer: peer, trusted: trustedProxies)
        else { return connectionAddress }
        return client.description
    }
}
