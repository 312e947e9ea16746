/// An error that knows the response it should become. The service throws its problem+json errors
/// through this; the server turns any other thrown error into a plain 500 (through
/// `HTTPServer.Hooks.errorResponse`), never leaking its description to the client.
public protocol HTTPResponseError: Error {
    /// The response for this error; `request` is there for its id and anything else the body needs.
    func response(for request: HTTPRequest) -> HTTPResponse
}
