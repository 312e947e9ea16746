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
    /// TLS needs the other direction to make progress (OpenSSL's WANT_WRITE on a read, WANT_READ
    /// on a write, e.g. during a key update): transport readiness, not connection state.
    private struct TLSWaits: OptionSet {
        let rawValue: UInt8
        /// A read (or the handshake) waits for the socket to be writable.
        static let readNeedsWritable = TLSWaits(rawValue: 1)
        /// A write waits for the socket to be readable.
        static let writeNeedsReadable = TLSWaits(rawValue: 2)
    }

    private static let streamWindow = 64 * 1024

    private unowned let owner: ServerLoop
    private let core: ServerCore
    let fd: Int32
    var token: UInt64 = 0
    /// The peer, or the client a trusted proxy's PROXY header named.
    private(set) var remoteAddress: String
    /// The client address counted against `maxConnectionsPerClient`; nil for a refused connection,
    /// which counts against nothing, for one still awaiting its PROXY header, and for one whose
    /// header named no client (a proxy's health check).
    private(set) var clientHost: String?
    /// A trusted proxy's address while its PROXY protocol header is awaited; nil otherwise.
    private var proxyPeerHost: String?
    /// Why this connection is refused (a limit is reached): it gets a 503 with `Retry-After` as
    /// soon as it can be written to (after the TLS handshake), then closes.
    let refusal: String?
    private var tls: TLSSession?

    private let buffer: InboundBuffer
    private var parser: RequestParser
    private var outbound: [[UInt8]] = []
    private var outboundOffset = 0
    /// Bytes queued in `outbound` and not yet written.
    private var queuedBytes = 0

    /// Which request is being received or answered, the peer's half-close, the deadlines: every
    /// decision about this connection's lifecycle is a transition of this value.
    private var machine: ConnectionStateMachine
    private var tlsWaits: TLSWaits = []
    private var registeredEvents: UInt32 = 0
    /// OpenSSL has been handed the socket: from then on its first bytes are no longer ours to peek.
    private var handshakeStarted = false

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
    private func perform(_ action: ConnectionStateMachine.Action) {
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
            } else if (activity == .reading || activity == .finishing)
                && (readable || (writable && tlsWaits.contains(.readNeedsWritable))) {
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

    private func continueHandshake() {
        guard let tls else { return }
        if !handshakeStarted {
            switch peekFirstBytes() {
            case .plaintext(let firstBytes):
                answerPlaintextOnSecurePort(firstBytes)
                updateInterest()
                return
            case .other:
                handshakeStarted = true
            case .none:
                break // nothing to look at yet: OpenSSL finds nothing to read either
            }
        }
        switch tls.handshake() {
        case .done:
            perform(machine.handshakeCompleted(now: owner.loop.now))
        case .wantRead:
            tlsWaits.remove(.readNeedsWritable)
        case .wantWrite:
            tlsWaits.insert(.readNeedsWritable)
        case .failed:
            close()
        }
        updateInterest()
    }

    /// What the connection's first bytes are: a plain HTTP request line, or not. A TLS client
    /// speaks first with a handshake record (content type 22, RFC 8446 §5.1; an SSLv2-style
    /// hello has the high bit set), never an ASCII letter, while
    /// every HTTP/1.1 request starts with a method token (RFC 9112 §3) — `GET`, `POST`… — so an
    /// upper-case letter first is a client that forgot `https://`. Peeked, not read: anything
    /// else goes to OpenSSL untouched.
    private func peekFirstBytes() -> FirstBytes {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        guard count > 0 else { return .none }
        guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[0]) else { return .other }
        return .plaintext(Array(bytes[..<count]))
    }

    private enum FirstBytes {
        /// A plain HTTP request line (its first bytes, up to 512).
        case plaintext([UInt8])
        /// Something else, presumably TLS: OpenSSL's business.
        case other
        /// Nothing arrived yet (or the peer closed).
        case none
    }

    /// Plain HTTP on the TLS port: answered in plain HTTP as nginx does — 400 "plain HTTP sent to
    /// the HTTPS port", logged with the method and target of its request line, then closed —
    /// instead of a handshake failure the client shows as a bare reset.
    private func answerPlaintextOnSecurePort(_ firstBytes: [UInt8]) {
        tls = nil
        machine.plaintextInsteadOfHandshake(now: owner.loop.now)
        guard case .writeRejection(let rejection) = machine.rejected() else {
            preconditionFailure("a rejection answers with an error response")
        }
        let line = firstBytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let printable = { (part: ArraySlice<UInt8>) in part.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
        let method = parts.count >= 2 && printable(parts[0]) ? String(decoding: parts[0], as: UTF8.self) : ""
        let target = parts.count >= 2 && parts[1].first == UInt8(ascii: "/") && printable(parts[1])
            ? String(decoding: parts[1], as: UTF8.self) : ""
        let id = owner.nextRequestID()
        let response = core.hooks.errorResponse(HTTPErrorContext(
            status: .badRequest, reason: "plain HTTP sent to the HTTPS port: use https://", requestID: id))
        let request = HTTPRequest(method: HTTPMethod(method), target: target, id: id, remoteAddress: remoteAddress)
        write(response, method: HTTPMethod(method), version: .http1_1, request: request, requestID: id,
              startedAt: rejection.startedAt, keepAlive: false)
        flush()
    }

    // MARK: Reading

    private func readOnce() {
        var space = buffer.reserveWritable(4096)
        if space == 0 { return }
        var more = true
        while more {
            more = false
            let result: IOResult
            if let tls {
                result = tls.read(into: buffer.writablePointer, count: space)
            } else {
                let count = Glibc.read(fd, buffer.writablePointer, space)
                if count > 0 {
                    result = .bytes(count)
                } else if count == 0 {
                    result = .eof
                } else {
                    result = errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock(wantsWrite: false) : .failed(errno)
                }
            }
            tlsWaits.remove(.readNeedsWritable)
            switch result {
            case .bytes(let count):
                buffer.didWrite(count)
                machine.didRead(now: owner.loop.now)
                // OpenSSL may hold decrypted bytes epoll cannot see: take them now.
                if let tls, tls.hasPendingBytes {
                    space = buffer.reserveWritable(4096)
                    more = space > 0
                }
            case .wouldBlock(let wantsWrite):
                if wantsWrite { tlsWaits.insert(.readNeedsWritable) }
            case .eof:
                perform(machine.peerClosed())
            case .failed:
                close()
            }
        }
    }

    /// Parses and dispatches as many buffered requests as the handlers answer synchronously, then
    /// writes all their responses with one flush (pipelined answers share a sendmsg). A
    /// synchronous answer leaves the machine reading again and this loop picks the next request
    /// up; an asynchronous one arrives later through `complete`, which calls this again.
    ///
    /// Past `maxQueuedOutputBytes` of unsent answers it stops before the next request; when the
    /// flush takes the queue below the bound at once it carries on (no event would come for
    /// requests already buffered), otherwise the writable event that drains it does.
    private func process() {
        if proxyPeerHost != nil && !readProxyHeader() { return }
        while parseAndDispatch() {
            if !machine.isClosed { flush() }
            guard machine.activity == .reading && !isOutputBacklogged else { return }
        }
        if !outbound.isEmpty && !machine.isClosed { flush() }
    }

    /// The loop of `process`; true when it stopped because the queued answers passed the bound.
    private func parseAndDispatch() -> Bool {
        while machine.activity == .reading {
            if isOutputBacklogged { return true }
            if !buffer.isEmpty { machine.requestBytesBuffered(now: owner.loop.now) }
            var event: RequestParser.Event?
            var consumed = 0
            do throws(HTTPParseError) {
                try buffer.withReadableBytes { bytes throws(HTTPParseError) in
                    let step = try parser.parse(bytes)
                    consumed = step.consumed
                    event = step.event
                    if case .body(let range)? = step.event {
                        machine.bodyReceived(UnsafeBufferPointer(rebasing: bytes[range]))
                    }
                }
            } catch {
                reject(error)
                return false
            }
            buffer.consume(consumed)
            switch event {
            case .head(let head)?:
                perform(machine.headReceived(head, now: owner.loop.now, bodyAlreadyBuffered: !buffer.isEmpty))
            case .body?:
                break
            case .end?:
                perform(machine.requestComplete())
            case nil:
                if consumed == 0 {
                    perform(machine.inputExhausted(
                        bufferEmpty: buffer.isEmpty, parserIdle: parser.isIdle, outputPending: !outbound.isEmpty))
                    return false
                }
            }
        }
        return false
    }

    /// The PROXY protocol header a trusted proxy sends before the client's first byte. False
    /// while it is incomplete (the head deadline covers it, as the request's first bytes) or when
    /// it ended the connection: malformed or missing, closed; naming a client over its share, 503.
    private func readProxyHeader() -> Bool {
        guard let peerHost = proxyPeerHost else { return true }
        let outcome: ProxyHeaderParser.Outcome
        do throws(ProxyHeaderError) {
            outcome = try buffer.withReadableBytes { bytes throws(ProxyHeaderError) in try ProxyHeaderParser.parse(bytes) }
        } catch {
            core.hooks.proxyHeaderRejected?(remoteAddress, error)
            close()
            return false
        }
        guard case .header(let header, let consumed) = outcome else {
            if !buffer.isEmpty { machine.requestBytesBuffered(now: owner.loop.now) }
            perform(machine.inputExhausted(bufferEmpty: buffer.isEmpty, parserIdle: buffer.isEmpty, outputPending: !outbound.isEmpty))
            return false
        }
        buffer.consume(consumed)
        proxyPeerHost = nil
        let client = core.admitProxied(header, peerAddress: remoteAddress)
        remoteAddress = client.remoteAddress
        guard client.admitted else {
            refuse(core.clientShareRefusal(client.counted ?? peerHost))
            return false
        }
        clientHost = client.counted
        return true
    }

    // MARK: Handling

    private func dispatch(_ head: RequestHead, body: [UInt8], number: Int) {
        let clientID = head.headers.percentDecodedValue("x-request-id")
        let id = clientID.flatMap { RequestIDGenerator.isAcceptable($0) ? $0 : nil } ?? owner.nextRequestID()
        var request = HTTPRequest(
            method: head.method, target: head.target, version: head.version, headers: head.headers,
            body: body, id: id, remoteAddress: core.clientAddress(of: head.headers, connectionAddress: remoteAddress),
            isSecure: tls != nil)
        core.hooks.onRequestStart?(request)

        let resolution = core.router.resolve(head.method, path: request.path)
        switch resolution {
        case .notFound:
            machine.requestRouted(request)
            let response = core.hooks.errorResponse(HTTPErrorContext(
                status: .notFound, reason: "no route for \(request.path)", requestID: id, request: request))
            answer(number, .success(response))
        case .methodNotAllowed(let allowed):
            machine.requestRouted(request)
            var response = core.hooks.errorResponse(HTTPErrorContext(
                status: .methodNotAllowed, reason: "\(head.method) is not allowed on \(request.path)",
                requestID: id, request: request, allowedMethods: allowed))
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            answer(number, .success(response))
        case .matched(let handler, let route, let parameters):
            request.route = route
            request.pathParameters = parameters
            machine.requestRouted(request)
            if let intercept = core.hooks.intercept {
                do {
                    if let early = try intercept(request) {
                        answer(number, .success(early))
                        return
                    }
                } catch {
                    answer(number, .failure(error))
                    return
                }
            }
            run(handler, request, number: number)
        }
    }

    private func run(_ handler: HTTPHandler, _ request: HTTPRequest, number: Int) {
        switch handler {
        case .immediate(let body):
            let result: Result<HTTPResponse, any Error>
            do { result = .success(try body(request)) } catch { result = .failure(error) }
            answer(number, result)
        case .deferred(let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            do {
                try body(request, responder)
            } catch {
                responder.fail(error)
            }
        case .async(let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            Task(executorPreference: core.handlerExecutor) {
                do {
                    responder.respond(try await body(request))
                } catch {
                    responder.fail(error)
                }
            }
        }
    }

    /// The handler's answer for request `number`, arriving later on the loop thread (deferred and
    /// async handlers answer through `loop.execute`, never from inside `process`).
    func complete(_ number: Int, _ result: Result<HTTPResponse, any Error>) {
        if answer(number, result) { resumeReading() }
    }

    /// Queues the answer for request `number`; true when it was a plain response, after which the
    /// connection reads on (or finishes). A synchronous answer is written by `process`'s flush.
    @discardableResult
    private func answer(_ number: Int, _ result: Result<HTTPResponse, any Error>) -> Bool {
        guard let request = machine.awaitedRequest(number) else { return false }
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): response = core.response(for: error, request: request)
        }
        let action = machine.responseReady(
            number: number, status: response.status, handlerCloses: response.headers.containsToken("close", in: "connection"),
            hasStream: response.stream != nil, serverClosing: core.isClosing)
        switch action {
        case .writeResponse(let reply):
            write(response, method: request.method, version: request.version, request: request,
                  requestID: request.id, startedAt: reply.startedAt, keepAlive: reply.keepAlive)
            return true
        case .startStream(let reply, let chunked):
            guard let producer = response.stream else { preconditionFailure("a stream without a producer") }
            var head: [UInt8] = []
            head.reserveCapacity(256)
            ResponseHeadWriter.write(
                status: response.status, headers: response.headers, contentLength: nil, chunked: chunked,
                date: owner.date(), requestID: request.id, connection: reply.keepAlive ? .none : .close, into: &head)
            machine.streamQueued(bytes: head.count)
            enqueue(head)
            flush()
            updateInterest()
            let writer = owner.makeBodyWriter(token: token, requestNumber: number)
            Task(executorPreference: core.handlerExecutor) {
                do {
                    try await producer(writer)
                    writer.finish()
                } catch {
                    writer.fail()
                }
            }
            return false
        default:
            perform(action)
            return false
        }
    }

    /// After a response: serve whatever pipelined requests are already buffered.
    private func resumeReading() {
        flush()
        if machine.activity == .reading {
            process()
            if machine.activity == .reading && tls?.hasPendingBytes == true {
                readOnce()
                process()
            }
        }
        updateInterest()
    }

    /// A piece, the end, or the failure of a streamed body (on the loop thread).
    func streamEvent(_ number: Int, _ event: HTTPBodyWriter.Event) {
        switch event {
        case .chunk(let bytes, let continuation):
            guard case .writeChunk(let chunked) = machine.streamChunk(number: number) else {
                continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
                return
            }
            var frame: [UInt8]
            if chunked {
                frame = []
                frame.reserveCapacity(bytes.count + 12)
                frame.append(contentsOf: String(bytes.count, radix: 16).utf8)
                frame.append(contentsOf: "\r\n".utf8)
                frame.append(contentsOf: bytes)
                frame.append(contentsOf: "\r\n".utf8)
            } else {
                frame = bytes
            }
            machine.streamQueued(bytes: frame.count)
            enqueue(frame)
            flush()
            if machine.isClosed {
                continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
            } else if queuedBytes < Self.streamWindow {
                continuation.resume()
            } else {
                // `flush` resumes it once the queue drains; `close` fails it.
                machine.producerParked(ConnectionStateMachine.ParkedProducer(continuation))
            }
            updateInterest()
        case .end:
            let action = machine.streamEnded(number: number)
            guard case .endStream(let stream) = action else {
                perform(action)
                return
            }
            if stream.chunked { enqueue(Array("0\r\n\r\n".utf8)) }
            logAccess(method: stream.request.method, request: stream.request, status: stream.status,
                      startedAt: stream.startedAt, bytes: stream.bytesSent + (stream.chunked ? 5 : 0))
            resumeReading()
        case .failed:
            let action = machine.streamFailed(number: number)
            guard case .abortStream(let stream) = action else {
                perform(action)
                return
            }
            // The head already promised a complete body; cutting the connection is the only way
            // left to tell the client it did not get one.
            logAccess(method: stream.request.method, request: stream.request, status: stream.status,
                      startedAt: stream.startedAt, bytes: stream.bytesSent)
            close()
        }
    }

    /// Queues bytes to write. The write deadline counts from the moment output starts waiting,
    /// not from a write that ended long before (an idle keep-alive connection's last one).
    private func enqueue(_ bytes: [UInt8]) {
        if outbound.isEmpty { machine.outputStarted(now: owner.loop.now) }
        queuedBytes += bytes.count
        outbound.append(bytes)
    }

    /// The client reads slower than it asks: its unsent answers passed the bound, so no further
    /// request of it is read or dispatched until they drain below it. A pipelining client that
    /// reads nothing then costs one answer and the bound, not every answer it asked for.
    private var isOutputBacklogged: Bool {
        queuedBytes > core.limits.maxQueuedOutputBytes
    }

    /// A connection past a limit: 503 with `Retry-After` (RFC 9110 §15.6.4, §10.2.3) before any
    /// request is read, then a lingering close, so the client reads the answer instead of a reset.
    private func refuse(_ reason: String) {
        let seconds = max(1, core.limits.connectionRetryAfter.components.seconds)
        reject(HTTPParseError(status: .serviceUnavailable, reason: reason, offset: 0), retryAfter: seconds)
        updateInterest()
    }

    /// Answers a framing error or timeout and closes: after such an error nothing more on this
    /// connection can be trusted to be a request of its own.
    private func reject(_ error: HTTPParseError, retryAfter: Int64? = nil) {
        guard case .writeRejection(let rejection) = machine.rejected() else {
            preconditionFailure("a rejection answers with an error response")
        }
        let id = owner.nextRequestID()
        var response = core.hooks.errorResponse(HTTPErrorContext(status: error.status, reason: error.reason, requestID: id))
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        let head = rejection.head
        let request = HTTPRequest(
            method: head?.method ?? HTTPMethod(""), target: head?.target ?? "", id: id, remoteAddress: remoteAddress)
        write(response, method: head?.method ?? .get, version: head?.version ?? .http1_1, request: request, requestID: id,
              startedAt: rejection.startedAt, keepAlive: false)
        flush()
    }

    private func write(
        _ response: HTTPResponse, method: HTTPMethod, version: HTTPVersion, request: HTTPRequest,
        requestID: String, startedAt: UInt64, keepAlive: Bool
    ) {
        let status = response.status
        let sendsBody = !status.forbidsBody && method != .head
        let connectionField: ResponseHeadWriter.ConnectionField =
            !keepAlive ? .close : (version == .http1_0 ? .keepAlive : .none)
        var head: [UInt8] = []
        head.reserveCapacity(256 + (tls != nil && sendsBody ? response.body.count : 0))
        // Only HEAD answers to streamed responses get here: announce the framing a GET would get.
        let streamed = response.stream != nil
        ResponseHeadWriter.write(
            status: status, headers: response.headers,
            contentLength: status.forbidsBody || streamed ? nil : response.body.count,
            chunked: streamed && !status.forbidsBody, date: owner.date(), requestID: requestID, connection: connectionField, into: &head)
        var bytes = head.count
        if sendsBody && !response.body.isEmpty {
            bytes += response.body.count
            if tls != nil || response.body.count <= 1024 {
                // One buffer: one TLS record, or a copy cheaper than an extra iovec.
                head.append(contentsOf: response.body)
                enqueue(head)
            } else {
                enqueue(head)
                enqueue(response.body)
            }
        } else {
            enqueue(head)
        }
        logAccess(method: method, request: request, status: status, startedAt: startedAt, bytes: bytes)
    }

    private func logAccess(method: HTTPMethod, request: HTTPRequest, status: HTTPStatus, startedAt: UInt64, bytes: Int) {
        guard let log = core.hooks.accessLog else { return }
        // A fresh reading, not the loop's cached one: a deferred answer that comes back within the
        // same loop iteration would otherwise log 0 ms however long its work took.
        let now = MonotonicClock.now()
        let elapsed = now >= startedAt ? now - startedAt : 0
        log(HTTPAccessLogRecord(
            method: method.rawValue, path: request.target.isEmpty ? "" : String(request.path), route: request.route,
            status: status.code, duration: .nanoseconds(Int64(clamping: elapsed)), bytesSent: bytes,
            requestID: request.id, remoteAddress: request.remoteAddress, loop: owner.loop.index))
    }

    // MARK: Writing

    private func flush() {
        while !outbound.isEmpty && !machine.isClosed {
            let result = tls == nil ? writePlain() : writeTLS()
            switch result {
            case .bytes(var count):
                machine.didWrite(now: owner.loop.now)
                tlsWaits.remove(.writeNeedsReadable)
                queuedBytes -= count
                while count > 0 {
                    let left = outbound[0].count - outboundOffset
                    if count >= left {
                        count -= left
                        outbound.removeFirst()
                        outboundOffset = 0
                    } else {
                        outboundOffset += count
                        count = 0
                    }
                }
            case .wouldBlock(let wantsWrite):
                if tls != nil && !wantsWrite {
                    tlsWaits.insert(.writeNeedsReadable)
                } else {
                    tlsWaits.remove(.writeNeedsReadable)
                }
                updateInterest()
                return
            case .eof, .failed:
                close()
                return
            }
        }
        if !machine.isClosed { perform(machine.outputDrained(now: owner.loop.now)) }
    }

    private func writePlain() -> IOResult {
        let count = min(outbound.count, 16)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            // The queued arrays are neither mutated nor released until sendmsg returns, so their
            // storage stays where these pointers say.
            for index in 0..<count {
                let chunk = outbound[index]
                let start = index == 0 ? outboundOffset : 0
                chunk.withUnsafeBytes { raw in
                    vectors[index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + start),
                        iov_len: raw.count - start)
                }
            }
            var message = msghdr()
            message.msg_iov = vectors.baseAddress
            message.msg_iovlen = count
            // MSG_NOSIGNAL: a client that went away must not SIGPIPE the process.
            let written = sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            if written >= 0 { return .bytes(written) }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock(wantsWrite: true) }
            return .failed(errno)
        }
    }

    private func writeTLS() -> IOResult {
        guard let tls else { return .failed(EBADF) }
        let start = outboundOffset
        return outbound[0].withUnsafeBytes { raw in
            tls.write(UnsafeRawBufferPointer(rebasing: raw[start...]))
        }
    }

    // MARK: Closing

    private func discardInput() {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        for _ in 0..<16 {
            let count = withUnsafeMutableBytes(of: &scratch) { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count == 0 {
                perform(machine.peerClosed())
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                close()
            }
            return
        }
    }

    func close() {
        guard !machine.isClosed else { return }
        let action = machine.close()
        owner.remove(self)
        Glibc.close(fd)
        outbound.removeAll()
        queuedBytes = 0
        tls = nil
        perform(action)
    }

    // MARK: Interest and timeouts

    private func updateInterest() {
        var events: UInt32 = 0
        switch machine.activity {
        case .handshaking: events = tlsWaits.contains(.readNeedsWritable) ? EPOLLOUT.rawValue : EPOLLIN.rawValue
        case .reading: events = isOutputBacklogged ? 0 : EPOLLIN.rawValue
        case .lingering: events = EPOLLIN.rawValue
        case .responding, .finishing: events = 0
        case .closed: return
        }
        if !outbound.isEmpty { events |= tlsWaits.contains(.writeNeedsReadable) ? EPOLLIN.rawValue : EPOLLOUT.rawValue }
        if tlsWaits.contains(.readNeedsWritable) { events |= EPOLLOUT.rawValue }
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
