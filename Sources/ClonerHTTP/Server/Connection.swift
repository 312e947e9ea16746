#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// One client connection: reads into its buffer, parses requests one at a time, runs the
/// handler, writes responses in order. What to do next — dispatch, write, close, linger, time
/// out — is decided by its `ConnectionStateMachine`; this class executes those actions on the
/// socket, the TLS session and the loop.
///
/// Loop-confined (every method runs on its loop's thread), so it holds plain mutable state and
/// is not Sendable. A slow or stalled client costs this object, its descriptor and its buffer —
/// never a thread.
final class Connection: EventLoopHandler {

    static let streamWindow = 64 * 1024
    /// Unconsumed bytes a streamed request body may queue before the connection stops reading.
    static let requestBodyWindow = 256 * 1024
    /// Largest piece of a streamed request body handed over at once.
    static let requestBodyChunk = 64 * 1024

    unowned let owner: ServerLoop
    let core: ServerCore
    let fd: Int32
    var token: UInt64 = 0
    /// The peer, or the client a trusted proxy's PROXY header named.
    var remoteAddress: String
    /// The client address counted against `maxConnectionsPerClient`; nil for a refused connection,
    /// which counts against nothing, for one still awaiting its PROXY header, and for one whose
    /// header named no client (a proxy's health check).
    var clientHost: String?
    /// A trusted proxy's address while its PROXY protocol header is awaited; nil otherwise.
    var proxyPeerHost: String?
    /// Why this connection is refused (a limit is reached): it gets a 503 with `Retry-After` as
    /// soon as it can be written to (after the TLS handshake), then closes.
    let refusal: String?
    var tls: TLSSession?

    let buffer: InboundBuffer
    var parser: RequestParser
    var outbound: [[UInt8]] = []
    var outboundOffset = 0
    /// Bytes queued in `outbound` and not yet written.
    var queuedBytes = 0

    /// Which request is being received or answered, the peer's half-close, the deadlines: every
    /// decision about this connection's lifecycle is a transition of this value.
    var machine: ConnectionStateMachine
    var tlsWaits: TLSWaits = []
    var registeredEvents: UInt32 = 0
    /// OpenSSL has been handed the socket: from then on its first bytes are no longer ours to peek.
    var handshakeStarted = false

    /// The route of the head just parsed, resolved for its body limit and kept for its dispatch.
    var headResolution: Router.Resolution?
    /// The streamed body of the request being received, while its handler runs.
    var inboundBody: HTTPRequestBody?
    /// Streamed body bytes parsed and not yet handed over: the pieces of one pass go as one chunk.
    var pendingBodyChunk: [UInt8] = []
    /// Body bytes received for the current request (the access log's `bytesReceived`).
    var requestBodyBytes = 0

    init(
        owner: ServerLoop, core: ServerCore, fd: Int32, remoteAddress: String, clientHost: String?,
        proxyPeerHost: String? = nil, refusal: String?, tls: TLSSession?, now: UInt64
    ) {
        self.owner = owner
        self.core = core
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.clientHost = clientHost
        self.proxyPeerHost = proxyPeerHost
        self.refusal = refusal
        self.tls = tls
        let limits = core.limits
        buffer = InboundBuffer(
            initialCapacity: 4096,
            maxCapacity: limits.maxRequestLineLength + limits.maxHeaderSectionLength + 16 * 1024)
        parser = RequestParser(limits: limits)
        machine = ConnectionStateMachine(limits: limits, secure: tls != nil, refused: refusal != nil, now: now)
    }

    /// The events to register with initially.
    var initialEvents: UInt32 { EPOLLIN.rawValue }

    func didRegister(token: UInt64) {
        self.token = token
        registeredEvents = initialEvents
        perform(machine.registered())
    }

    /// Executes a transition's action. Actions that need the response at hand (`writeResponse`,
    /// `startStream`, the stream's) are executed where it is.
    func perform(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .nothing:
            break
        case .readMore:
            readOnce()
            process()
        case .refuse:
            refuse(refusal ?? "the server is past a connection limit")
        case .writeContinue:
            enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            flush()
        case .dispatch(let head, let body, let number):
            dispatch(head, body: body, number: number)
        case .resumeProducer(let parked):
            parked.continuation.resume()
        case .failProducer(let parked):
            parked.continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
        case .timeOut(let reason):
            reject(HTTPParseError(status: .requestTimeout, reason: reason, offset: parser.offset))
            updateInterest()
        case .linger:
            tls?.shutdown()
            shutdown(fd, Int32(SHUT_WR))
            buffer.clear()
            updateInterest()
        case .close:
            close()
        case .writeResponse, .startStream, .writeChunk, .rejectChunk, .endStream, .abortStream, .writeRejection:
            preconditionFailure("\(action) is executed where its response is at hand")
        }
    }

    // MARK: Events

    func handleEvents(_ events: UInt32) {
        if machine.isClosed { return }
        if events & EPOLLERR.rawValue != 0 {
            close()
            return
        }
        let readable = events & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0
        let writable = events & EPOLLOUT.rawValue != 0
        switch machine.activity {
        case .handshaking:
            continueHandshake()
        case .lingering:
            if readable { discardInput() }
        case .reading, .responding, .finishing:
            let wasBacklogged = isOutputBacklogged
            if writable || tlsWaits.contains(.readNeedsWritable) || (readable && tlsWaits.contains(.writeNeedsReadable)) {
                flush()
                if machine.isClosed { return }
            }
            let activity = machine.activity
            if activity == .reading && isOutputBacklogged {
                // Held: read nothing more until the answers drain (a hang-up still shows as EPOLLHUP).
                if events & EPOLLHUP.rawValue != 0 && events & EPOLLIN.rawValue == 0 {
                    close()
                    return
                }
            } else if activity == .reading && machine.isBodyPaused {
                // Held by a streamed body's handler, which is behind: nothing is read until it
                // catches up. Both directions hung up: the body will never complete.
                if events & EPOLLHUP.rawValue != 0 && events & EPOLLIN.rawValue == 0 {
                    close()
                    return
                }
            } else if (activity == .reading || activity == .finishing)
                && (readable || (writable && tlsWaits.contains(.readNeedsWritable)))
            {
                readOnce()
                process()
            } else if activity == .reading && wasBacklogged {
                // Drained below the bound: serve the pipelined requests already buffered (and
                // any OpenSSL holds decrypted, which no readable event will announce).
                process()
                if machine.activity == .reading && !isOutputBacklogged && tls?.hasPendingBytes == true {
                    readOnce()
                    process()
                }
            } else if activity == .responding && events & EPOLLHUP.rawValue != 0 {
                // The client is gone; the handler's answer will find the connection closed.
                close()
                return
            }
        case .closed:
            return
        }
        updateInterest()
    }

    // MARK: Closing

    func close() {
        guard !machine.isClosed else { return }
        let action = machine.close()
        failInboundBody(HTTPRequestBody.ConnectionClosed())
        owner.remove(self)
        Glibc.close(fd)
        outbound.removeAll()
        queuedBytes = 0
        tls = nil
        perform(action)
    }

    // MARK: Interest and timeouts

    func updateInterest() {
        var events: UInt32 = 0
        switch machine.activity {
        case .handshaking: events = tlsWaits.contains(.readNeedsWritable) ? EPOLLOUT.rawValue : EPOLLIN.rawValue
        case .reading: events = isOutputBacklogged || machine.isBodyPaused ? 0 : EPOLLIN.rawValue
        case .lingering: events = EPOLLIN.rawValue
        case .responding, .finishing: events = 0
        case .closed: return
        }
        if !outbound.isEmpty { events |= tlsWaits.contains(.writeNeedsReadable) ? EPOLLIN.rawValue : EPOLLOUT.rawValue }
        // A read held back for a streamed body's handler waits for it, not for the socket.
        if tlsWaits.contains(.readNeedsWritable) && !machine.isBodyPaused { events |= EPOLLOUT.rawValue }
        if events != registeredEvents {
            registeredEvents = events
            owner.loop.modify(fd: fd, token: token, events: events)
        }
    }

    /// Called by the loop's tick; closes or answers 408 when a deadline passed.
    func checkTimeouts(now: UInt64) {
        perform(machine.timerFired(now: now, outputPending: !outbound.isEmpty))
    }

    /// The request this connection still owes an answer to, if any.
    var unansweredRequest: HTTPRequest? { machine.unansweredRequest }

    /// Drain: close now if idle, else let the current request finish with `Connection: close`.
    func beginDrain() {
        perform(machine.drainStarted(bufferEmpty: buffer.isEmpty, outputPending: !outbound.isEmpty))
    }
}
