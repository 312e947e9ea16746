/// What a route runs. Three shapes, because the event loop must never block:
/// - `immediate`: cheap work (health, metrics, model) run on the loop thread, answered at once;
/// - `deferred`: the handler hands the work to its own queue (SQLite, clone jobs) and calls
///   `HTTPResponder.respond(_:)` later from any thread, which wakes the loop;
/// - `async`: Swift concurrency; the server runs it in a Task and responds when it returns.
/// Errors thrown (or passed to `HTTPResponder.fail`) become responses: `HTTPResponseError`
/// answers for itself, anything else is a 500.
public enum HTTPHandler: Sendable {
    case immediate(@Sendable (HTTPRequest) throws -> HTTPResponse)
    case deferred(@Sendable (HTTPRequest, HTTPResponder) throws -> Void)
    case async(@Sendable (HTTPRequest) async throws -> HTTPResponse)
}
