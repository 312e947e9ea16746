/// A response the server produces on its own: framing rejections (400, 408, 413, 414, 431, 501,
/// 505), 404 and 405 from the router, and 500 for unexpected errors. The service's
/// `errorResponse` hook turns it into a body (problem+json); the server then adds
/// `Connection: close` where framing can no longer be trusted and `Allow` on 405.
public struct HTTPErrorContext: Sendable {
    public var status: HTTPStatus
    /// A short reason, safe to show to the client (`"Content-Length 9999999 exceeds 8388608"`).
    public var reason: String
    public var requestID: String
    /// The request, when one was parsed far enough (nil for framing errors).
    public var request: HTTPRequest?
    /// For 405: the methods the path does serve.
    public var allowedMethods: [HTTPMethod]

    public init(status: HTTPStatus, reason: String, requestID: String, request: HTTPRequest? = nil, allowedMethods: [HTTPMethod] = []) {
        self.status = status
        self.reason = reason
        self.requestID = requestID
        self.request = request
        self.allowedMethods = allowedMethods
    }
}
