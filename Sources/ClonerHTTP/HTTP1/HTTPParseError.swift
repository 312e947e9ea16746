/// Why the parser refused a request: the status to answer, a short reason for logs and error
/// bodies, and the byte offset (from the first byte fed to the parser) where it gave up.
///
/// Every such error ends the connection: once framing is in doubt, whatever follows could be a
/// smuggled request, so the server answers with `Connection: close` and closes.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPStatus
    public var reason: String
    public var offset: Int

    public init(status: HTTPStatus, reason: String, offset: Int) {
        self.status = status
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(status.code) \(reason) (at byte \(offset))" }
}
