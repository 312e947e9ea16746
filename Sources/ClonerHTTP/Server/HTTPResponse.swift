/// A complete response: status, header fields and body bytes.
///
/// The server adds the framing and bookkeeping fields itself (`Content-Length`, `Date`,
/// `Connection`, `X-Request-ID`), so handlers set only what is about their content; a
/// `Content-Length` or `Transfer-Encoding` set by a handler is ignored.
///
/// A body too large or too slow to build in memory can be streamed instead (`streaming`): it is
/// sent with chunked transfer coding (close-delimited for HTTP/1.0 clients).
public struct HTTPResponse: Sendable {
    /// Produces a streamed body through the writer; runs as a Task once the head is queued.
    public typealias BodyProducer = @Sendable (HTTPBodyWriter) async throws -> Void

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// When set, `body` is ignored and the body is whatever this producer writes.
    public var stream: BodyProducer?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A streamed body. If the producer throws after the head went out, the status can no longer
    /// change: the server cuts the connection so the client sees a truncated body, not a
    /// complete-looking one.
    public static func streaming(
        status: HTTPStatus = .ok, headers: HTTPHeaders = [:], _ producer: @escaping BodyProducer
    ) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.stream = producer
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
