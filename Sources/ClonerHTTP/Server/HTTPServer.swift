#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import Dispatch

/// An HTTP/1.1 server on non-blocking sockets and epoll event loops (one per core by default),
/// optionally over TLS.
///
/// Using it:
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _ in .json(Array(#"{"status":"ok"}"#.utf8)) }          // runs on the loop
/// router.add(.post, "/{collection}/{id}/clone", deferred: { request, responder in   // answers later
///     cloneQueue.async { responder.respond(.json(work(request.parameter("id")))) }
/// })
/// var hooks = HTTPServer.Hooks()
/// hooks.accessLog = { record in logger.info(...) }            // one record per request
/// hooks.errorResponse = { context in problemJSON(context) }   // bodies of 400/404/405/408/413/.../500
/// let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 8080), router: router, hooks: hooks)
/// let port = try server.start()      // binds the listener (EADDRINUSE if served), returns the port
/// ...
/// server.shutdown(drainTimeout: .seconds(10))   // blocking graceful stop
/// ```
///
/// - Handlers: `HTTPHandler.immediate` runs on the loop thread and must be cheap;
///   `.deferred` gets an `HTTPResponder` it may answer from any thread (the loop is woken through
///   an eventfd); `.async` runs as a Task. Errors conforming to `HTTPResponseError` become their
///   own response, others a 500 built by `Hooks.errorResponse`.
/// - The server owns framing: it adds `Content-Length`, `Date` (cached per second),
///   `X-Request-ID` (the client's if sane, else generated) and `Connection`, drops the body of
///   HEAD answers, and closes after every rejection whose framing can't be trusted.
/// - Large or slow bodies: `HTTPResponse.streaming { writer in try await writer.write(...) }` sends
///   chunked with backpressure (the producer's `write` waits while the client is behind);
///   `router.add(.put, pattern, maxBodyBytes: 1 << 30, streamed: { request, body in ... })`
///   receives one (`for try await chunk in body`), and the connection stops reading while the
///   handler is behind.
/// - Hooks (`onRequestStart`, `accessLog`, `errorResponse`) run on loop threads: keep them cheap.
/// - Limits and timeouts: `Configuration.limits` (`HTTPLimits`, the defaults of docs/architecture.md#framing-and-limits).
/// - `shutdown(drainTimeout:grace:)` blocks: after the grace (listener open, all served) it stops accepting, closes idle connections, lets
///   in-flight requests finish (answered with `Connection: close`) until the drain timeout,
///   then closes everything (each request still unanswered goes to `Hooks.onRequestCut`) and joins the loop threads. `isDraining` turns true at its start
///   (the service's `/readyz` reports it). Never call it from a handler running on a loop.
///   From async code, `await shutdown(drainTimeout:)` waits without blocking a pool thread.
public final class HTTPServer: Sendable {
    private struct State {
        var core: ServerCore?
        var loops: [ServerLoop] = []
        /// The one listening socket every loop accepts from; closed by `shutdown` once no loop
        /// watches it any more.
        var listenerFD: Int32 = -1
        var port: Int?
        var stopped = false
    }

    public let configuration: Configuration
    private let router: Router
    private let hooks: Hooks
    private let state = LockedValue(State())

    public init(configuration: Configuration, router: Router, hooks: Hooks = Hooks()) {
        self.configuration = configuration
        self.router = router
        self.hooks = hooks
    }

    /// Binds the listeners, starts the loops and returns the bound port.
    /// Throws `SocketError` (bind/listen) or `TLSError` (certificate or key).
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state throws -> Int in
            precondition(state.core == nil, "HTTPServer.start() called twice")
            // A peer closing mid-write must not kill the process; sends also pass MSG_NOSIGNAL,
            // but OpenSSL writes with write(2).
            signal(SIGPIPE, SIG_IGN)
            let tls = try configuration.tls.map { configuration throws(TLSError) in try TLSContext(configuration) }
            let core = ServerCore(configuration: configuration, router: router, hooks: hooks, tls: tls)
            let listener = try ListeningSocket.open(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            do {
                var loops: [ServerLoop] = []
                for index in 0..<configuration.eventLoopCount {
                    loops.append(ServerLoop(loop: try EventLoop(index: index), core: core, listenerFD: listener.fd))
                }
                for serverLoop in loops {
                    serverLoop.loop.start(name: "http-loop-\(serverLoop.loop.index)")
                    serverLoop.loop.execute { serverLoop.activate() }
                }
                state.loops = loops
            } catch {
                close(listener.fd)
                throw error
            }
            state.core = core
            state.listenerFD = listener.fd
            state.port = listener.port
            return listener.port
        }
    }

    /// The bound port once started.
    public var port: Int? { state.withLock { $0.port } }

    /// True from the start of `shutdown` on.
    public var isDraining: Bool { state.withLock { $0.core?.isDraining ?? false } }

    /// Connections currently open across all loops.
    public var openConnectionCount: Int { state.withLock { $0.core?.openConnections.load(ordering: .relaxed) ?? 0 } }

    /// Graceful stop; blocks until every loop thread has exited (at most about `drainTimeout`).
    /// Calling it again, or before `start()`, returns at once.
    ///
    /// For the first `grace` (counted within `drainTimeout`) nothing changes for clients but
    /// `isDraining`: the listener stays open and every connection is served, so a load balancer
    /// can still ask `/readyz`, see 503 and stop sending, instead of meeting refused connections.
    /// Then the listener closes, idle connections close, and in-flight requests finish with
    /// `Connection: close` until the drain timeout.
    public func shutdown(drainTimeout: Duration = .seconds(10), grace: Duration = .zero) {
        let (core, loops, listenerFD) = state.withLock { state -> (ServerCore?, [ServerLoop], Int32) in
            guard !state.stopped else { return (nil, [], -1) }
            state.stopped = true
            return (state.core, state.loops, state.listenerFD)
        }
        guard let core else { return }
        precondition(!loops.contains { $0.loop.inEventLoop }, "HTTPServer.shutdown called from an event loop thread")
        let start = MonotonicClock.now()
        let deadline = start + drainTimeout.nanoseconds
        core.draining.store(true, ordering: .relaxed)
        let graceEnd = start + min(grace, drainTimeout).nanoseconds
        while MonotonicClock.now() < graceEnd { usleep(10_000) }
        core.closing.store(true, ordering: .relaxed)
        // Every loop lets go of the shared listener before it is closed, so no loop is left
        // watching (or accepting from) a descriptor number the process may reuse.
        let released = DispatchGroup()
        for serverLoop in loops {
            released.enter()
            serverLoop.loop.execute {
                serverLoop.beginDrain()
                released.leave()
            }
        }
        released.wait()
        close(listenerFD)
        while core.openConnections.load(ordering: .relaxed) > 0 && MonotonicClock.now() < deadline {
            usleep(5_000)
        }
        for serverLoop in loops {
            serverLoop.loop.execute { serverLoop.closeAll() }
            serverLoop.loop.stop()
        }
        for serverLoop in loops { serverLoop.loop.waitUntilStopped() }
    }

    /// `shutdown(drainTimeout:)` for async callers: the blocking wait runs on a Dispatch thread,
    /// not on the cooperative pool that in-flight async handlers may need to finish.
    public func shutdown(drainTimeout: Duration = .seconds(10), grace: Duration = .zero) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.shutdown(drainTimeout: drainTimeout, grace: grace)
                continuation.resume()
            }
        }
    }
}
