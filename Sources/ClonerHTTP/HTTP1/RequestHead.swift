/// A request's start line and header section, with the framing decisions the parser made from
/// them. The parser decides framing (not the handler) because getting it wrong is how requests
/// get smuggled: every later layer trusts `framing`, never the raw headers.
public struct RequestHead: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request-target exactly as sent (origin-form `/a/b?c`, absolute-form, `*`, or authority-form).
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// How the body is delimited (RFC 9112 §6.3).
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one (RFC 9112 §9.3):
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool
    /// The client sent `Expect: 100-continue` on HTTP/1.1 and waits before sending its body
    /// (RFC 9110 §10.1.1; ignored on HTTP/1.0 as that section requires).
    public var expectsContinue: Bool

    public init(
        method: HTTPMethod, target: String, version: HTTPVersion, headers: HTTPHeaders,
        framing: BodyFraming = .none, keepAlive: Bool = true, expectsContinue: Bool = false
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
    }
}
