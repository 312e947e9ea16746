/// One line of the access log, delivered once per answered request (including framing
/// rejections) to `HTTPServer.Hooks.accessLog`, on the event loop thread, as the response is
/// handed to the socket: the callback should format and write, not block.
public struct HTTPAccessLogRecord: Sendable {
    /// Empty for requests rejected before their request line could be read.
    public var method: String
    /// The raw path (no query), empty when unknown.
    public var path: String
    /// The matched route pattern, if any.
    public var route: String?
    public var status: Int
    /// From the request's first byte (or from the head, for pipelined requests already buffered)
    /// to the response being queued.
    public var duration: Duration
    /// Bytes of the response, head and body, written for this request.
    public var bytesSent: Int
    /// Body bytes received for this request (after chunked framing is removed); for a streamed
    /// body, as far as it got.
    public var bytesReceived: Int
    public var requestID: String
    /// The client: `HTTPRequest.remoteAddress` (behind a trusted proxy, the client it names).
    public var remoteAddress: String
    /// The event loop (0-based) whose thread delivers this record: a hook may buffer per loop and
    /// write at `Hooks.onLoopIterationEnd`.
    public var loop: Int
}
