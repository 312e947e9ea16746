import Synchronization

/// What every loop of one server shares: configuration, router, hooks, TLS context and the
/// server-wide counters. Immutable apart from atomics, hence safely Sendable.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let router: Router
    let hooks: HTTPServer.Hooks
    let tls: TLSContext?
    let openConnections = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)

    init(configuration: HTTPServer.Configuration, router: Router, hooks: HTTPServer.Hooks, tls: TLSContext?) {
        self.configuration = configuration
        self.router = router
        self.hooks = hooks
        self.tls = tls
    }

    var limits: HTTPLimits { configuration.limits }
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// The response for a thrown error: its own if it is an `HTTPResponseError`, else a 500 that
    /// says nothing about the error itself (it may hold paths, SQL or data).
    func response(for error: any Error, request: HTTPRequest) -> HTTPResponse {
        if let known = error as? any HTTPResponseError {
            return known.response(for: request)
        }
        let reason = error is ResponderDropped ? "the handler did not answer" : "internal error"
        return hooks.errorResponse(HTTPErrorContext(
            status: .internalServerError, reason: reason, requestID: request.id, request: request))
    }
}
