import Synchronization
import ClonerConcurrency

/// What every loop of one server shares: configuration, router, hooks, TLS context and the
/// server-wide counters. Immutable apart from atomics, hence safely Sendable.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let router: Router
    let hooks: HTTPServer.Hooks
    let tls: TLSContext?
    let openConnections = Atomic<Int>(0)
    /// Open connections per client address (only addresses with at least one). Taken once per
    /// accept and once per close, never per request, so the lock is not on any hot path.
    private let connectionsPerClient = LockedValue<[String: Int]>([:])
    /// True from the start of `shutdown`: readiness reports it, connections keep being served.
    let draining = Atomic<Bool>(false)
    /// True once the drain grace is over: the listener is closed, idle connections are closed,
    /// answers carry `Connection: close`.
    let closing = Atomic<Bool>(false)
    /// Runs `async` handlers and streamed bodies (see `HandlerExecutor` for why not the pool).
    let handlerExecutor = HandlerExecutor(label: "cloner.http.handlers")

    init(configuration: HTTPServer.Configuration, router: Router, hooks: HTTPServer.Hooks, tls: TLSContext?) {
        self.configuration = configuration
        self.router = router
        self.hooks = hooks
        self.tls = tls
    }

    var limits: HTTPLimits { configuration.limits }
    var isDraining: Bool { draining.load(ordering: .relaxed) }
    var isClosing: Bool { closing.load(ordering: .relaxed) }

    /// Counts a new connection from `host` unless the address already holds
    /// `maxConnectionsPerClient`; false means refuse it.
    func admitClient(_ host: String) -> Bool {
        let limit = limits.maxConnectionsPerClient
        return connectionsPerClient.withLock { counts in
            let count = counts[host, default: 0]
            guard count < limit else { return false }
            counts[host] = count + 1
            return true
        }
    }

    /// Releases what `admitClient` counted.
    func releaseClient(_ host: String) {
        connectionsPerClient.withLock { counts in
            guard let count = counts[host] else { return }
            counts[host] = count > 1 ? count - 1 : nil
        }
    }

    /// The response for a thrown error: its own if it is an `HTTPResponseError`, else a 500 that
    /// says nothing about the error itself (it may hold paths, SQL or data).
    func response(for error: any Error, request: HTTPRequest) -> HTTPResponse {
        if let known = error as? any HTTPResponseError {
            return known.response(for: request)
        }
        let reason = error is ResponderDropped ? "the handler did not answer" : "internal error"
        return hooks.errorResponse(
            HTTPErrorContext(
                status: .internalServerError, reason: reason, requestID: request.id, request: request))
    }
}
