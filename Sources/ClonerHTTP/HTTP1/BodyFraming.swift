/// How a request body is delimited on the wire.
public enum BodyFraming: Sendable, Equatable {
    /// No Content-Length and no Transfer-Encoding: no body (RFC 9112 §6.3 rule 7 for requests).
    case none
    case contentLength(Int)
    case chunked
}
