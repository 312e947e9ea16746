/// A request header field a client sets per request as a parameter of the API — exactly the
/// header parameters the API description declares — read in one canonical form whichever client
/// sent it (`HTTPHeaders.clientValue(_:)`). A client generated from the description
/// (swift-openapi-generator's runtime) writes such a value as a URI component, percent-encoded
/// (`If-None-Match: "3"` as `%223%22`, `Idempotency-Key: order 42/a` as `order%2042%2Fa`), while
/// curl sends it as written; both must mean the same precondition, range, preference or key.
///
/// Fields no generated client encodes are read as they come: framing and credentials
/// (`Content-Type`, `Content-Length`, `Authorization`, `Host`), set by the client library itself.
public struct ClientHeaderField: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    private init(_ name: String) { self.name = name }

    public static let ifMatch = ClientHeaderField("If-Match")
    public static let ifNoneMatch = ClientHeaderField("If-None-Match")
    public static let ifRange = ClientHeaderField("If-Range")
    public static let range = ClientHeaderField("Range")
    public static let prefer = ClientHeaderField("Prefer")
    public static let idempotencyKey = ClientHeaderField("Idempotency-Key")
    public static let requestID = ClientHeaderField("X-Request-ID")

    /// Every field read canonically: the header parameters of the API description.
    public static let all: [ClientHeaderField] = [.ifMatch, .ifNoneMatch, .ifRange, .range, .prefer, .idempotencyKey, .requestID]

    public var description: String { name }
}
