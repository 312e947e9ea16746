#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// One client connection: reads into its buffer, parses requests one at a time, runs the
/// handler, writes responses in order, enforces the per-connection timeouts.
///
/// Loop-confined (every method runs on its loop's thread), so it holds plain mutable state and
/// is not Sendable. A slow or stalled client costs this object, its descriptor and its buffer —
/// never a thread.
final class Connection: EventLoopHandler {
    enum Phase {
        /// TLS handshake in progress.
        case handshaking
        /// Reading (or between) requests.
        case reading
        /// A request was dispatched; its handler has not answered yet. Later pipelined requests
        /// wait in the buffer, so answers stay in order.
        case awaiting
        /// The final response is out and our side is shut down; reading and discarding until the
        /// client closes, so unread request bytes don't turn our close into a RST that destroys
        /// the response in the client's receive buffer (RFC 9112 §9.6).
        case lingering
        case closed
    }

    /// The request being received or handled.
    private struct Exchange {
        var head: RequestHead
        var body: [UInt8] = []
        var startedAt: UInt64
        var request: HTTPRequest?
    }

    /// A streamed response in progress (the connection stays `.awaiting` until it ends).
    private struct Stream {
        var number: Int
        var chunked: Bool
        var keepAlive: Bool
        var method: HTTPMethod
        var status: HTTPStatus
        var request: HTTPRequest
        var startedAt: UInt64
        var bytesSent: Int
        /// The producer's suspended `write`, resumed once the queue drains below `streamWindow`.
        var pending: CheckedContinuation<Void, any Error>?
    }

    private static let streamWindow = 64 * 1024

    private unowned let owner: ServerLoop
    private let core: ServerCore
    let fd: Int32
    var token: UInt64 = 0
    let remoteAddress: String
    /// The client address counted against `maxConnectionsPerClient`; nil for a refused connection,
    /// which counts against nothing.
    let clientHost: String?
    /// Why this connection is refused (a limit is reached): it gets a 503 with `Retry-After` as
    /// soon as it can be written to (after the TLS handshake), then closes.
    let refusal: String?
    private var tls: TLSSession?

    private let buffer: InboundBuffer
    private var parser: RequestParser
    private var outbound: [[UInt8]] = []
    private var outboundOffset = 0

    private(set) var phase: Phase
    private var exchange: Exchange?
    private var stream: Stream?
    /// When the current request's first byte arrived (0: no request in progress).
    private var headStartedAt: UInt64 = 0
    /// When the current request's body began (the end of its head), and how many body bytes have
    /// arrived since: the minimum-rate deadline grows with the bytes received, not the ones declared.
    private var bodyStartedAt: UInt64 = 0
    private var bodyReceived = 0
    private var lastActivity: UInt64
    private var lastWriteProgress: UInt64
    private var lingerDeadline: UInt64 = 0
    private var closeAfterFlush = false
    private var peerClosed = false
    private var tlsReadWantsWrite = false
    /// TLS can need the peer's bytes to finish a write (a key update); wait for readable then.
    private var tlsWriteWantsRead = false
    /// Set while `process()` runs: a synchronous answer must not re-enter it (pipelined requests
    /// would otherwise recurse once per request); the running loop picks the next request up.
    private var processing = false
    private var requestCount = 0
    /// Sequence number of the dispatched request, so a late answer for an earlier one is ignored.
    private var requestNumber = 0
    private var registeredEvents: UInt32 = 0

    init(
        owner: ServerLoop, core: ServerCore, fd: Int32, remoteAddress: String, clientHost: String?, refusal: String?,
        tls: TLSSession?, now: UInt64
    ) {
        self.owner = owner
        self.core = core
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.clientHost = clientHost
        self.refusal = refusal
        self.tls = tls
        let limits = core.limits
        buffer = InboundBuffer(
            initialCapacity: 4096,
            maxCapacity: limits.maxRequestLineLength + limits.maxHeaderSectionLength + 16 * 1024)
        parser = RequestParser(limits: limits)
        phase = tls == nil ? .reading : .handshaking
        lastActivity = now
        lastWriteProgress = now
    }

    /// The events to register with initially.
    var initialEvents: UInt32 { EPOLLIN.rawValue }

    func didRegister(token: UInt64) {
        self.token = token
        registeredEvents = initialEvents
        if let refusal, phase == .reading { refuse(refusal) }
    }

    var isIdle: Bool {
        phase == .reading && exchange == nil && headStartedAt == 0 && buffer.isEmpty && outbound.isEmpty
    }

    // MARK: Events

    func handleEvents(_ events: UInt32) {
        if phase == .closed { return }
        if events & EPOLLERR.rawValue != 0 {
            close()
            return
        }
        let readable = events & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0
        let writable = events & EPOLLOUT.rawValue != 0
        switch phase {
        case .handshaking:
            continueHandshake()
        case .lingering:
            if readable { discardInput() }
        case .reading, .awaiting:
            if writable || tlsReadWantsWrite || (readable && tlsWriteWantsRead) {
                flush()
                if phase == .closed { return }
            }
            if phase == .reading && (readable || (writable && tlsReadWantsWrite)) {
                readOnce()
                process()
            } else if phase == .awaiting && events & EPOLLHUP.rawValue != 0 {
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
        switch tls.handshake() {
        case .done:
            phase = .reading
            lastActivity = owner.loop.now
            if let refusal {
                refuse(refusal)
                return
            }
            readOnce()
            process()
        case .wantRead:
            tlsReadWantsWrite = false
        case .wantWrite:
            tlsReadWantsWrite = true
        case .failed:
            close()
        }
        updateInterest()
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
            tlsReadWantsWrite = false
            switch result {
            case .bytes(let count):
                buffer.didWrite(count)
                lastActivity = owner.loop.now
                // OpenSSL may hold decrypted bytes epoll cannot see: take them now.
                if let tls, tls.hasPendingBytes {
                    space = buffer.reserveWritable(4096)
                    more = space > 0
                }
            case .wouldBlock(let wantsWrite):
                tlsReadWantsWrite = wantsWrite
            case .eof:
                peerClosed = true
            case .failed:
                close()
            }
        }
    }

    /// Parses and dispatches as many buffered requests as the handlers answer synchronously, then
    /// writes all their responses with one flush (pipelined answers share a sendmsg).
    private func process() {
        if processing { return }
        processing = true
        defer {
            processing = false
            if !outbound.isEmpty && phase != .closed { flush() }
        }
        while phase == .reading && !closeAfterFlush {
            if headStartedAt == 0 && exchange == nil && !buffer.isEmpty {
                headStartedAt = owner.loop.now
            }
            var event: RequestParser.Event?
            var consumed = 0
            do throws(HTTPParseError) {
                try buffer.withReadableBytes { bytes throws(HTTPParseError) in
                    let step = try parser.parse(bytes)
                    consumed = step.consumed
                    event = step.event
                    if case .body(let range)? = step.event {
                        exchange?.body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                        bodyReceived += range.count
                    }
                }
            } catch {
                reject(error)
                break
            }
            buffer.consume(consumed)
            switch event {
            case .head(let head)?:
                receivedHead(head)
            case .body?:
                break
            case .end?:
                dispatch()
            case nil:
                if consumed == 0 {
                    if buffer.isEmpty && exchange == nil && parser.isIdle { headStartedAt = 0 }
                    if peerClosed { finishAfterPeerClosed() }
                    return
                }
            }
        }
    }

    private func receivedHead(_ head: RequestHead) {
        var exchange = Exchange(head: head, startedAt: headStartedAt == 0 ? owner.loop.now : headStartedAt)
        // Reserve for the announced body, but not blindly: a client announcing 8 MiB and sending
        // nothing must not make every connection hold 8 MiB.
        if case .contentLength(let length) = head.framing { exchange.body.reserveCapacity(min(length, 256 * 1024)) }
        self.exchange = exchange
        headStartedAt = 0
        bodyStartedAt = owner.loop.now
        bodyReceived = 0
        // RFC 9110 §10.1.1: 100 Continue only once the head passed every check (it did, or the
        // parser would have thrown) and only if the client is not already sending the body.
        if head.expectsContinue && buffer.isEmpty {
            outbound.append(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            flush()
        }
    }

    private func finishAfterPeerClosed() {
        // The client sent FIN: answer what was complete, then close. A half-received request
        // can never complete.
        if outbound.isEmpty && phase == .reading { close() }
    }

    // MARK: Handling

    private func dispatch() {
        guard var exchange else { return }
        requestCount += 1
        requestNumber += 1
        let head = exchange.head
        let clientID = head.headers["x-request-id"]
        let id = clientID.flatMap { RequestIDGenerator.isAcceptable($0) ? $0 : nil } ?? owner.nextRequestID()
        var request = HTTPRequest(
            method: head.method, target: head.target, version: head.version, headers: head.headers,
            body: exchange.body, id: id, remoteAddress: remoteAddress, isSecure: tls != nil)
        exchange.body = []
        core.hooks.onRequestStart?(request)

        let resolution = core.router.resolve(head.method, path: request.path)
        switch resolution {
        case .notFound:
            exchange.request = request
            self.exchange = exchange
            phase = .awaiting
            let response = core.hooks.errorResponse(HTTPErrorContext(
                status: .notFound, reason: "no route for \(request.path)", requestID: id, request: request))
            complete(requestNumber, .success(response))
        case .methodNotAllowed(let allowed):
            exchange.request = request
            self.exchange = exchange
            phase = .awaiting
            var response = core.hooks.errorResponse(HTTPErrorContext(
                status: .methodNotAllowed, reason: "\(head.method) is not allowed on \(request.path)",
                requestID: id, request: request, allowedMethods: allowed))
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            complete(requestNumber, .success(response))
        case .matched(let handler, let route, let parameters):
            request.route = route
            request.pathParameters = parameters
            exchange.request = request
            self.exchange = exchange
            phase = .awaiting
            if let intercept = core.hooks.intercept {
                do {
                    if let early = try intercept(request) {
                        complete(requestNumber, .success(early))
                        return
                    }
                } catch {
                    complete(requestNumber, .failure(error))
                    return
                }
            }
            run(handler, request)
        }
    }

    private func run(_ handler: HTTPHandler, _ request: HTTPRequest) {
        let number = requestNumber
        switch handler {
        case .immediate(let body):
            let result: Result<HTTPResponse, any Error>
            do { result = .success(try body(request)) } catch { result = .failure(error) }
            complete(number, result)
        case .deferred(let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            do {
                try body(request, responder)
            } catch {
                responder.fail(error)
            }
        case .async(let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            Task {
                do {
                    responder.respond(try await body(request))
                } catch {
                    responder.fail(error)
                }
            }
        }
    }

    /// The handler's answer for request `number` (on the loop thread).
    func complete(_ number: Int, _ result: Result<HTTPResponse, any Error>) {
        guard phase == .awaiting, number == requestNumber, let exchange, let request = exchange.request else { return }
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): response = core.response(for: error, request: request)
        }
        let handlerCloses = response.headers.containsToken("close", in: "connection")
        var keepAlive = exchange.head.keepAlive && !handlerCloses && !core.isClosing
            && requestCount < core.limits.maxRequestsPerConnection && !peerClosed
        if let producer = response.stream, exchange.head.method != .head {
            // HTTP/1.0 has no chunked coding: the body ends where the connection does.
            let chunked = exchange.head.version == .http1_1
            keepAlive = keepAlive && chunked
            var head: [UInt8] = []
            head.reserveCapacity(256)
            ResponseHeadWriter.write(
                status: response.status, headers: response.headers, contentLength: nil, chunked: chunked,
                date: owner.date(), requestID: request.id, connection: keepAlive ? .none : .close, into: &head)
            outbound.append(head)
            stream = Stream(
                number: number, chunked: chunked, keepAlive: keepAlive, method: exchange.head.method,
                status: response.status, request: request, startedAt: exchange.startedAt, bytesSent: head.count)
            self.exchange = nil
            flush()
            updateInterest()
            let writer = owner.makeBodyWriter(token: token, requestNumber: number)
            Task {
                do {
                    try await producer(writer)
                    writer.finish()
                } catch {
                    writer.fail()
                }
            }
            return
        }
        write(response, method: exchange.head.method, version: exchange.head.version, request: request,
              requestID: request.id, startedAt: exchange.startedAt, keepAlive: keepAlive)
        self.exchange = nil
        resumeReading()
    }

    /// After a response: serve whatever pipelined requests are already buffered.
    private func resumeReading() {
        phase = .reading
        if processing { return }
        flush()
        if phase == .reading {
            process()
            if phase == .reading && tls?.hasPendingBytes == true {
                readOnce()
                process()
            }
        }
        updateInterest()
    }

    /// A piece, the end, or the failure of a streamed body (on the loop thread).
    func streamEvent(_ number: Int, _ event: HTTPBodyWriter.Event) {
        guard phase == .awaiting, var stream, stream.number == number else {
            if case .chunk(_, let continuation) = event { continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed()) }
            return
        }
        switch event {
        case .chunk(let bytes, let continuation):
            var frame: [UInt8] = []
            if stream.chunked {
                frame.reserveCapacity(bytes.count + 12)
                frame.append(contentsOf: String(bytes.count, radix: 16).utf8)
                frame.append(contentsOf: "\r\n".utf8)
                frame.append(contentsOf: bytes)
                frame.append(contentsOf: "\r\n".utf8)
            } else {
                frame = bytes
            }
            stream.bytesSent += frame.count
            outbound.append(frame)
            self.stream = stream
            flush()
            if phase == .closed {
                continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
            } else if queuedBytes < Self.streamWindow {
                continuation.resume()
            } else {
                self.stream?.pending = continuation
            }
            updateInterest()
        case .end:
            self.stream = nil
            if stream.chunked { outbound.append(Array("0\r\n\r\n".utf8)) }
            if !stream.keepAlive { closeAfterFlush = true }
            logAccess(method: stream.method, request: stream.request, status: stream.status,
                      startedAt: stream.startedAt, bytes: stream.bytesSent + (stream.chunked ? 5 : 0))
            resumeReading()
        case .failed:
            // The head already promised a complete body; cutting the connection is the only way
            // left to tell the client it did not get one.
            logAccess(method: stream.method, request: stream.request, status: stream.status,
                      startedAt: stream.startedAt, bytes: stream.bytesSent)
            close()
        }
    }

    private var queuedBytes: Int {
        outbound.reduce(0) { $0 + $1.count } - outboundOffset
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
        let id = owner.nextRequestID()
        var response = core.hooks.errorResponse(HTTPErrorContext(status: error.status, reason: error.reason, requestID: id))
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        let head = exchange?.head
        let request = HTTPRequest(
            method: head?.method ?? HTTPMethod(""), target: head?.target ?? "", id: id, remoteAddress: remoteAddress)
        write(response, method: head?.method ?? .get, version: head?.version ?? .http1_1, request: request, requestID: id,
              startedAt: exchange?.startedAt ?? (headStartedAt == 0 ? lastActivity : headStartedAt), keepAlive: false)
        exchange = nil
        phase = .reading
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
                outbound.append(head)
            } else {
                outbound.append(head)
                outbound.append(response.body)
            }
        } else {
            outbound.append(head)
        }
        if !keepAlive { closeAfterFlush = true }

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
            requestID: request.id, remoteAddress: remoteAddress))
    }

    // MARK: Writing

    private func flush() {
        while !outbound.isEmpty && phase != .closed {
            let result = tls == nil ? writePlain() : writeTLS()
            switch result {
            case .bytes(var count):
                lastWriteProgress = owner.loop.now
                tlsWriteWantsRead = false
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
                tlsWriteWantsRead = tls != nil && !wantsWrite
                updateInterest()
                return
            case .eof, .failed:
                close()
                return
            }
        }
        if let pending = stream?.pending, queuedBytes < Self.streamWindow {
            stream?.pending = nil
            pending.resume()
        }
        if outbound.isEmpty && closeAfterFlush && phase != .closed && phase != .lingering {
            startLingeringClose()
        }
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

    private func startLingeringClose() {
        if peerClosed {
            close()
            return
        }
        tls?.shutdown()
        shutdown(fd, Int32(SHUT_WR))
        buffer.clear()
        phase = .lingering
        lingerDeadline = owner.loop.now + 2_000_000_000
        updateInterest()
    }

    private func discardInput() {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        for _ in 0..<16 {
            let count = withUnsafeMutableBytes(of: &scratch) { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { close() }
            return
        }
    }

    func close() {
        guard phase != .closed else { return }
        phase = .closed
        owner.remove(self)
        Glibc.close(fd)
        outbound.removeAll()
        exchange = nil
        tls = nil
        if let pending = stream?.pending {
            pending.resume(throwing: HTTPBodyWriter.ConnectionClosed())
        }
        stream = nil
    }

    // MARK: Interest and timeouts

    private func updateInterest() {
        guard phase != .closed else { return }
        var events: UInt32 = 0
        switch phase {
        case .handshaking: events = tlsReadWantsWrite ? EPOLLOUT.rawValue : EPOLLIN.rawValue
        case .reading: events = closeAfterFlush ? 0 : EPOLLIN.rawValue
        case .awaiting: events = 0
        case .lingering: events = EPOLLIN.rawValue
        case .closed: return
        }
        if !outbound.isEmpty { events |= tlsWriteWantsRead ? EPOLLIN.rawValue : EPOLLOUT.rawValue }
        if tlsReadWantsWrite { events |= EPOLLOUT.rawValue }
        if events != registeredEvents {
            registeredEvents = events
            owner.loop.modify(fd: fd, token: token, events: events)
        }
    }

    /// Called by the loop's tick; closes or answers 408 when a deadline passed.
    func checkTimeouts(now: UInt64) {
        let limits = core.limits
        switch phase {
        case .closed:
            return
        case .handshaking:
            if now &- lastActivity > limits.headerTimeout.nanoseconds { close() }
        case .lingering:
            if now > lingerDeadline { close() }
        case .awaiting:
            if !outbound.isEmpty && now &- lastWriteProgress > limits.writeTimeout.nanoseconds { close() }
        case .reading:
            if !outbound.isEmpty {
                if now &- lastWriteProgress > limits.writeTimeout.nanoseconds { close() }
            } else if exchange != nil && parser.isReadingBody {
                if now &- lastActivity > limits.bodyReadTimeout.nanoseconds {
                    timeOut("no body bytes for \(limits.bodyReadTimeout)")
                } else if now &- bodyStartedAt > bodyAllowance(limits) {
                    timeOut("request body slower than \(limits.bodyMinimumRate) bytes/s: \(bodyReceived) bytes in "
                        + "\((now &- bodyStartedAt) / 1_000_000) ms (at most \(limits.bodyMaximumTimeout) in all)")
                }
            } else if headStartedAt != 0 {
                // Measured from the request's first byte, not the last: trickling doesn't extend it.
                if now &- headStartedAt > limits.headerTimeout.nanoseconds {
                    timeOut("request head not complete within \(limits.headerTimeout)")
                }
            } else if now &- lastActivity > limits.idleTimeout.nanoseconds {
                close()
            }
        }
    }

    /// How long the current body may take so far: the first window plus one second per
    /// `bodyMinimumRate` bytes received, capped (DESIGN.md §5, as Apache mod_reqtimeout). A trickle
    /// of a byte every few seconds earns a few milliseconds and is cut after the first window.
    private func bodyAllowance(_ limits: HTTPLimits) -> UInt64 {
        let earned = limits.bodyMinimumRate > 0
            ? min(UInt64(bodyReceived), 1 << 33) * 1_000_000_000 / UInt64(limits.bodyMinimumRate)
            : UInt64.max / 2
        return min(limits.bodyMaximumTimeout.nanoseconds, limits.bodyTimeout.nanoseconds &+ earned)
    }

    private func timeOut(_ reason: String) {
        reject(HTTPParseError(status: .requestTimeout, reason: reason, offset: parser.offset))
        updateInterest()
    }

    /// Drain: close now if idle, else let the current request finish with `Connection: close`.
    func beginDrain() {
        if isIdle { close() }
    }
}
