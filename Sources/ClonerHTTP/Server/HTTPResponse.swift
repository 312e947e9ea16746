/// A complete response: status, header fields and body bytes.
///
/// The server adds the framing and bookkeeping fields itself (`Content-Length`, `Date`,
/// `Connection`, `X-Request-ID`), so handlers set only what is about their content; a
/// `Content-Length` or `Transfer-Encoding` set by a handler is ignored.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
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
