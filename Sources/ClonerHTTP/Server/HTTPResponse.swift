/// A complete response: status, header fields and body bytes.
///
/// The server adds the framing and bookkeeping fields itself (`Content-Length`, `Date`,
/// `Connection`, `X-Request-ID`), so handlers set only what is about their content; a
/// `Content-Length` or `Transfer-Encoding` set by a handler is ignored.
///
/// A body too large or too slow to build in memory can be streamed instead (`streaming`): it is
/// sent with chunked transfer coding (close-delimited for HTTP/1.0 clients), or with
/// `Content-Length` when its length is known before it starts.
public struct HTTPResponse: Sendable {
    /// Produces a streamed body through the writer; runs as a Task once the head is queued.
    public typealias BodyProducer = @Sendable (HTTPBodyWriter) async throws -> Void

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// When set, `body` is ignored and the body is whatever this producer writes.
    public var stream: BodyProducer?
    /// The length of the streamed body, when known before it starts: the head then carries
    /// `Content-Length` (a client learns the size, also from a HEAD) and the body goes unframed.
    /// The producer must write exactly this many bytes; the connection closes when it writes
    /// fewer (ends early or throws) or tries to write more, so a short body is never taken for a
    /// whole one (RFC 9112 §6.3: a body shorter than its Content-Length is incomplete).
    public var streamLength: Int?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A streamed body, of `length` bytes when known (see `streamLength`). If the producer throws
    /// after the head went out, the status can no longer change: the server cuts the connection
    /// so the client sees a truncated body, not a complete-looking one.
    public static func streaming(
        status: HTTPStatus = .ok, headers: HTTPHeaders = [:], length: Int? = nil, _ producer: @escaping BodyProducer
    ) -> HTTPResponse {
        precondition(length.map { $0 >= 0 } ?? true, "a streamed body of \(length ?? 0) bytes")
        var response = HTTPResponse(status: status, headers: headers)
        response.stream = producer
        response.streamLength = length
        return response
    }

    /// JSON bytes the caller already encoded, with `Content-Type: application/json` unless
    /// `headers` name another JSON type (`application/problem+json`).
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add("Content-Type", "application/json") }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A UTF-8 plain-text body.
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add("Content-Type", "text/plain; charset=utf-8") }
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }
}
