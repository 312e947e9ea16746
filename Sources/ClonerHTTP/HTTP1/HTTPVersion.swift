/// The protocol version of a request. Only 1.0 and 1.1 get past the parser (others answer 505),
/// but the type keeps both digits so an error can name what the client sent.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The names mirror the protocol's own (HTTP/1.0, HTTP/1.1).
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }
}
