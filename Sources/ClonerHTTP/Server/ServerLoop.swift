#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// The server's state on one event loop: its listener, its connections, its date cache and
/// request-id generator.
///
/// `@unchecked Sendable`: every method runs on `loop`'s thread; other threads only pass the
/// reference into `loop.execute`, which runs the closure on that thread.
final class ServerLoop: EventLoopHandler, @unchecked Sendable {
    let loop: EventLoop
    private let core: ServerCore
    /// The server's listener, shared by every loop; the server closes it, never a loop.
    private var listenerFD: Int32
    private var listenerToken: UInt64 = 0
    private var acceptPausedUntil: UInt64 = 0
    /// Refused connections of this loop still writing their 503 or lingering; beyond
    /// `maxRefusedConnections` a refused connection is closed without an answer, so a flood
    /// can't turn refusals into an unbounded number of descriptors.
    private var refusedConnections = 0
    private static let maxRefusedConnections = 64
    private var connections: [UInt64: Connection] = [:]
    private var dateCache = HTTPDateCache()
    private var requestIDs: RequestIDGenerator

    init(loop: EventLoop, core: ServerCore, listenerFD: Int32) {
        self.loop = loop
        self.core = core
        self.listenerFD = listenerFD
        requestIDs = RequestIDGenerator(loopIndex: loop.index)
    }

    /// EPOLLEXCLUSIVE: a new connection wakes one of the loops watching the shared listener,
    /// not all of them.
    private static let listenerEvents = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue

    /// Registers the listener; runs on the loop thread.
    func activate() {
        listenerToken = loop.register(fd: listenerFD, events: Self.listenerEvents, handler: self)
        let smallest =
            [core.limits.headerTimeout, core.limits.bodyReadTimeout, core.limits.bodyTimeout, core.limits.idleTimeout, core.limits.writeTimeout]
            .map(\.nanoseconds).min() ?? 1_000_000_000
        loop.tickInterval = max(10_000_000, min(250_000_000, smallest / 4))
        loop.onTick = { [unowned self] in tick() }
        if let iterationEnd = core.hooks.onLoopIterationEnd {
            let index = loop.index
            loop.onIterationEnd = { iterationEnd(index) }
        }
    }

    func nextRequestID() -> String { requestIDs.next() }
    func date() -> [UInt8] { dateCache.current() }

    func makeResponder(token: UInt64, requestNumber: Int) -> HTTPResponder {
        HTTPResponder { [self] result in
            loop.execute { [self] in
                connections[token]?.complete(requestNumber, result)
            }
        }
    }

    func makeRequestBodySignal(token: UInt64, requestNumber: Int) -> @Sendable (HTTPRequestBody.Signal) -> Void {
        { [self] signal in
            loop.execute { [self] in
                connections[token]?.requestBodySignal(requestNumber, signal)
            }
        }
    }

    func makeBodyWriter(token: UInt64, requestNumber: Int) -> HTTPBodyWriter {
        HTTPBodyWriter { [self] event in
            loop.execute { [self] in
                if let connection = connections[token] {
                    connection.streamEvent(requestNumber, event)
                } else if case .chunk(_, let continuation) = event {
                    continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
                }
            }
        }
    }

    func remove(_ connection: Connection) {
        connections[connection.token] = nil
        loop.unregister(fd: connection.fd, token: connection.token)
        if connection.refusal != nil {
            refusedConnections -= 1
        } else {
            core.openConnections.subtract(1, ordering: .relaxed)
            if let host = connection.clientHost { core.releaseClient(host) }
        }
    }

    // MARK: Accepting

    func handleEvents(_ events: UInt32) {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    cepoll_accept_nonblocking(listenerFD, address, &length)
                }
            }
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Out of descriptors: stop accepting for a moment instead of spinning on a
                    // listener that stays readable.
                    pauseAccepting()
                }
                return
            }
            if core.isClosing {
                Glibc.close(fd)
                continue
            }
            let (remote, host) = withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (SocketAddress.describe($0), SocketAddress.host($0)) }
            }
            var refusal: String?
            // A trusted proxy's connection is counted against the client its PROXY header names,
            // once read (`Connection.readProxyHeader`).
            let awaitsProxyHeader = core.expectsProxyHeader(from: host)
            let open = core.openConnections.add(1, ordering: .relaxed).newValue
            if open > core.limits.maxConnections {
                core.openConnections.subtract(1, ordering: .relaxed)
                refusal = "the server holds its limit of \(core.limits.maxConnections) open connections; retry later"
            } else if !awaitsProxyHeader && !core.admitClient(host) {
                core.openConnections.subtract(1, ordering: .relaxed)
                refusal = core.clientShareRefusal(host)
            }
            if refusal != nil {
                guard refusedConnections < Self.maxRefusedConnections else {
                    Glibc.close(fd)
                    continue
                }
                refusedConnections += 1
            }
            var on: Int32 = 1
            // Responses leave in one write; Nagle would only delay them.
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            var session: TLSSession?
            if let context = core.tls {
                session = TLSSession(context: context, fd: fd)
                if session == nil {
                    if refusal != nil {
                        refusedConnections -= 1
                    } else {
                        core.openConnections.subtract(1, ordering: .relaxed)
                        if !awaitsProxyHeader { core.releaseClient(host) }
                    }
                    Glibc.close(fd)
                    continue
                }
            }
            let connection = Connection(
                owner: self, core: core, fd: fd, remoteAddress: remote,
                clientHost: refusal == nil && !awaitsProxyHeader ? host : nil,
                proxyPeerHost: refusal == nil && awaitsProxyHeader ? host : nil,
                refusal: refusal, tls: session, now: loop.now)
            let token = loop.register(fd: fd, events: connection.initialEvents, handler: connection)
            connections[token] = connection
            connection.didRegister(token: token)
        }
    }

    private func pauseAccepting() {
        guard listenerToken != 0 else { return }
        loop.unregister(fd: listenerFD, token: listenerToken)
        listenerToken = 0
        acceptPausedUntil = loop.now + 100_000_000
    }

    private func tick() {
        let now = loop.now
        if listenerToken == 0 && listenerFD >= 0 && acceptPausedUntil != 0 && now >= acceptPausedUntil && !core.isClosing {
            acceptPausedUntil = 0
            listenerToken = loop.register(fd: listenerFD, events: Self.listenerEvents, handler: self)
        }
        for connection in Array(connections.values) {
            connection.checkTimeouts(now: now)
            if core.isClosing { connection.beginDrain() }
        }
    }

    // MARK: Shutdown

    /// Stops watching the listener (the server closes it once every loop did) and closes idle
    /// connections; busy ones close after their current response.
    func beginDrain() {
        if listenerToken != 0 { loop.unregister(fd: listenerFD, token: listenerToken) }
        listenerToken = 0
        listenerFD = -1
        for connection in Array(connections.values) { connection.beginDrain() }
    }

    /// The drain deadline: every connection closes now; a request still owed an answer is
    /// reported to `Hooks.onRequestCut` first, so its loss is logged rather than silent.
    func closeAll() {
        beginDrain()
        for connection in Array(connections.values) {
            if let request = connection.unansweredRequest { core.hooks.onRequestCut?(request) }
            connection.close()
        }
    }
}
