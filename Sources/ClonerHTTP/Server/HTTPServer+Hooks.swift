extension HTTPServer {
    /// The service's per-request hooks. All run on an event loop thread: keep them cheap.
    public struct Hooks: Sendable {
        /// Called once a request is complete, before routing (e.g. an in-flight gauge).
        public var onRequestStart: (@Sendable (HTTPRequest) -> Void)?
        /// Runs before the handler of a matched route (on the loop thread, with `route` and
        /// `pathParameters` set): return a response, or throw an error, to answer without running
        /// the handler (authentication, rate limits); return nil to go on.
        public var intercept: (@Sendable (HTTPRequest) throws -> HTTPResponse?)?
        /// Called once per answered request, as the response is queued for the socket.
        public var accessLog: (@Sendable (HTTPAccessLogRecord) -> Void)?
        /// Called on an event loop's thread at the end of each of its iterations — after it has
        /// served every connection epoll reported and every answer handed back to it, before it
        /// waits again — with the loop's index. What `accessLog` buffered for that loop can be
        /// written here in one go: one system call for every request of the iteration instead of
        /// one each, and nothing held back while the loop sleeps.
        public var onLoopIterationEnd: (@Sendable (_ loop: Int) -> Void)?
        /// Called for each request still without its answer (a handler that has not answered, a
        /// streamed body that has not ended) when `shutdown`'s drain timeout closes its
        /// connection: the client gets no response, and this is the only trace of it.
        public var onRequestCut: (@Sendable (HTTPRequest) -> Void)?
        /// Builds the responses the server makes itself (framing rejections, timeouts, 404, 405,
        /// 500 for unknown errors). The default is a short plain-text body.
        public var errorResponse: @Sendable (HTTPErrorContext) -> HTTPResponse
        /// A trusted proxy's connection closed because its PROXY protocol header was malformed or
        /// missing, with the peer (`10.0.0.7:41234`) and what was wrong: worth a warning, since it
        /// means a proxy and this server disagree on whether the header is sent.
        public var proxyHeaderRejected: (@Sendable (_ peer: String, _ error: ProxyHeaderError) -> Void)?

        public init(
            onRequestStart: (@Sendable (HTTPRequest) -> Void)? = nil,
            intercept: (@Sendable (HTTPRequest) throws -> HTTPResponse?)? = nil,
            accessLog: (@Sendable (HTTPAccessLogRecord) -> Void)? = nil,
            onLoopIterationEnd: (@Sendable (_ loop: Int) -> Void)? = nil,
            onRequestCut: (@Sendable (HTTPRequest) -> Void)? = nil,
            errorResponse: @escaping @Sendable (HTTPErrorContext) -> HTTPResponse = HTTPServer.plainTextErrorResponse,
            proxyHeaderRejected: (@Sendable (_ peer: String, _ error: ProxyHeaderError) -> Void)? = nil
        ) {
            self.onRequestStart = onRequestStart
            self.intercept = intercept
            self.accessLog = accessLog
            self.onLoopIterationEnd = onLoopIterationEnd
            self.onRequestCut = onRequestCut
            self.errorResponse = errorResponse
            self.proxyHeaderRejected = proxyHeaderRejected
        }
    }

    /// `404 Not Found: no route for /x` as text/plain.
    public static let plainTextErrorResponse: @Sendable (HTTPErrorContext) -> HTTPResponse = { context in
        .text("\(context.status.code) \(context.status.reasonPhrase): \(context.reason)\n", status: context.status)
    }
}
