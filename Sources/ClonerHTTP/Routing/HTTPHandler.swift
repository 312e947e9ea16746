/// What a route runs. Three shapes, because the event loop must never block:
/// - `immediate`: cheap work (health, metrics, model) run on the loop thread, answered at once;
/// - `deferred`: the handler hands the work to its own queue (SQLite, clone jobs) and calls
///   `HTTPResponder.respond(_:)` later from any thread, which wakes the loop;
/// - `async`: Swift concurrency; the server runs it in a Task and responds when it returns.
/// - `streamed`: like `async`, but for bodies too large to hold: the handler runs as soon as the
///   head is parsed and pulls the body in chunks from `HTTPRequestBody` (`HTTPRequest.body` stays
///   empty). The body may be up to `maxBodyBytes` instead of `HTTPLimits.maxBodyLength`; a
///   Content-Length above it is refused with 413 before the handler runs. A handler that answers
///   before reading the whole body gets its answer sent with `Connection: close`.
/// Errors thrown (or passed to `HTTPResponder.fail`) become responses: `HTTPResponseError`
/// answers for itself, anything else is a 500.
public enum HTTPHandler: Sendable {
    case immediate(@Sendable (HTTPRequest) throws -> HTTPResponse)
    case deferred(@Sendable (HTTPRequest, HTTPResponder) throws -> Void)
    case async(@Sendable (HTTPRequest) async throws -> HTTPResponse)
    case streamed(maxBodyBytes: Int, @Sendable (HTTPRequest, HTTPRequestBody) async throws -> HTTPResponse)

    /// The largest body a request for this handler may send.
    func maxBodyBytes(default limit: Int) -> Int {
        if case .streamed(let maxBodyBytes, _) = self { return maxBodyBytes }
        return limit
    }
}
