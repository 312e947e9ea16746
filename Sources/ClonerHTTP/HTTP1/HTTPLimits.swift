/// Every size limit and timeout the server enforces, each configurable.
///
/// The defaults (docs/architecture.md#framing-and-limits): they bound what one client can make the server hold
/// (memory per connection, time per request) so that slow or hostile clients cost a file
/// descriptor and a small buffer, never a thread or unbounded memory.
public struct HTTPLimits: Sendable, Hashable {
    /// Longest request line (method, target, version); beyond it the answer is 414
    /// (RFC 9112 §3: a server that receives a longer request-target than it wishes to parse answers 414).
    public var maxRequestLineLength: Int = 8 * 1024
    /// Longest single header field line (name, colon, value); beyond it 431 (RFC 6585 §5).
    public var maxHeaderFieldLength: Int = 8 * 1024
    /// Largest header section (all field lines, without the request line); beyond it 431.
    public var maxHeaderSectionLength: Int = 32 * 1024
    /// Most header fields in one request; beyond it 431.
    public var maxHeaderCount: Int = 100
    /// Largest request body; a Content-Length above it is refused with 413 before any body byte
    /// is read, and a chunked body growing past it is cut off with 413.
    public var maxBodyLength: Int = 8 * 1024 * 1024
    /// Longest chunk-size line including extensions: chunk extensions carry nothing we use,
    /// so a long one is an attack on buffer memory (400).
    public var maxChunkLineLength: Int = 4 * 1024

    /// Time from a request's first byte to the end of its header section. Not reset by trickled
    /// bytes, so a slowloris client cannot hold a connection by sending a byte every few seconds (408).
    public var headerTimeout: Duration = .seconds(10)
    /// Longest pause between two reads of a request body.
    public var bodyReadTimeout: Duration = .seconds(30)
    /// The body's first window, from the end of the head (Apache mod_reqtimeout's `body=20`).
    /// A body still incomplete past its deadline answers 408 and closes: the pause timer alone
    /// can't stop a client trickling one byte just before each pause ends.
    public var bodyTimeout: Duration = .seconds(20)
    /// Bytes per second that extend the body's deadline: each `bodyMinimumRate` bytes actually
    /// received (not declared in Content-Length) add one second (mod_reqtimeout's `MinRate=500`).
    public var bodyMinimumRate: Int = 500
    /// The body's deadline never extends past this, however fast it arrives: at 8 MiB that still
    /// allows about 70 KB/s.
    public var bodyMaximumTimeout: Duration = .seconds(120)
    /// Longest time queued output makes no progress (nothing of it is written): counted from the
    /// last write that moved bytes, or from when output began waiting; then the connection closes.
    public var writeTimeout: Duration = .seconds(30)
    /// Unsent answers one connection may hold before the server stops reading and dispatching its
    /// next pipelined request, until they drain below it again. One answer larger than this is
    /// still sent whole; the bound keeps the answers after it from piling up behind it.
    public var maxQueuedOutputBytes: Int = 256 * 1024
    /// Idle keep-alive: longer than the 60 s idle timeout of common load balancers, which
    /// otherwise reuse a connection we are closing and answer their client 502.
    public var idleTimeout: Duration = .seconds(75)
    /// Requests served on one connection before the server closes it (`Connection: close`).
    public var maxRequestsPerConnection: Int = 1000
    /// Open connections across all event loops; a connection beyond it is answered 503 with
    /// `Retry-After` and closed.
    public var maxConnections: Int = 1024
    /// Open connections from one client address (IP, without port): one client can't take every
    /// slot. Beyond it, the same 503. Clients behind one NAT share it; behind a trusted proxy that
    /// sends the PROXY protocol header, the client the header names counts, not the proxy
    /// (`HTTPServer.Configuration.proxyProtocol`).
    public var maxConnectionsPerClient: Int = 256
    /// The `Retry-After` of that 503 (RFC 9110 §10.2.3), in whole seconds.
    public var connectionRetryAfter: Duration = .seconds(1)

    public init() {}
}
