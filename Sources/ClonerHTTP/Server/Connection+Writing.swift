#if canImport(Glibc)
import Glibc
#endif

/// Writing a connection: responses and streamed bodies queued, error answers, and the queue
/// flushed to the socket (or OpenSSL).
extension Connection {
    /// A piece, the end, or the failure of a streamed body (on the loop thread).
    func streamEvent(_ number: Int, _ event: HTTPBodyWriter.Event) {
        switch event {
        case .chunk(let bytes, let continuation):
            guard case .writeChunk(let chunked) = machine.streamChunk(number: number, bytes: bytes.count) else {
                continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
                return
            }
            if chunked && tls == nil {
                // The piece queued as it is between its size line and CRLF, which `sendmsg`
                // gathers: copying it into a frame first was one more copy of every byte an
                // export sends.
                let sizeLine = Array((String(bytes.count, radix: 16) + "\r\n").utf8)
                machine.streamQueued(bytes: sizeLine.count + bytes.count + 2)
                enqueue(sizeLine)
                enqueue(bytes)
                enqueue(Self.chunkEnd)
            } else if chunked {
                // One buffer: one TLS record.
                var frame: [UInt8] = []
                frame.reserveCapacity(bytes.count + 12)
                frame.append(contentsOf: String(bytes.count, radix: 16).utf8)
                frame.append(contentsOf: "\r\n".utf8)
                frame.append(contentsOf: bytes)
                frame.append(contentsOf: "\r\n".utf8)
                machine.streamQueued(bytes: frame.count)
                enqueue(frame)
            } else {
                machine.streamQueued(bytes: bytes.count)
                enqueue(bytes)
            }
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
            if case .abortStream(let stream) = action {
                // It ended short of its Content-Length.
                abort(stream)
                return
            }
            guard case .endStream(let stream) = action else {
                perform(action)
                return
            }
            if stream.chunked { enqueue(Array("0\r\n\r\n".utf8)) }
            logAccess(
                method: stream.request.method, request: stream.request, status: stream.status,
                startedAt: stream.startedAt, bytes: stream.bytesSent + (stream.chunked ? 5 : 0))
            resumeReading()
        case .failed:
            let action = machine.streamFailed(number: number)
            guard case .abortStream(let stream) = action else {
                perform(action)
                return
            }
            abort(stream)
        }
    }

    /// The head already promised a complete body; cutting the connection is the only way left to
    /// tell the client it did not get one.
    private func abort(_ stream: ConnectionStateMachine.Streaming) {
        logAccess(
            method: stream.request.method, request: stream.request, status: stream.status,
            startedAt: stream.startedAt, bytes: stream.bytesSent)
        close()
    }

    /// What ends every chunk of a chunked body.
    static let chunkEnd = Array("\r\n".utf8)

    /// Queues bytes to write. The write deadline counts from the moment output starts waiting,
    /// not from a write that ended long before (an idle keep-alive connection's last one).
    func enqueue(_ bytes: [UInt8]) {
        if outbound.isEmpty { machine.outputStarted(now: owner.loop.now) }
        queuedBytes += bytes.count
        outbound.append(bytes)
    }

    /// The client reads slower than it asks: its unsent answers passed the bound, so no further
    /// request of it is read or dispatched until they drain below it. A pipelining client that
    /// reads nothing then costs one answer and the bound, not every answer it asked for.
    var isOutputBacklogged: Bool {
        queuedBytes > core.limits.maxQueuedOutputBytes
    }

    /// A connection past a limit: 503 with `Retry-After` (RFC 9110 §15.6.4, §10.2.3) before any
    /// request is read, then a lingering close, so the client reads the answer instead of a reset.
    func refuse(_ reason: String) {
        let seconds = max(1, core.limits.connectionRetryAfter.components.seconds)
        reject(HTTPParseError(status: .serviceUnavailable, reason: reason, offset: 0), retryAfter: seconds)
        updateInterest()
    }

    /// Answers a framing error or timeout and closes: after such an error nothing more on this
    /// connection can be trusted to be a request of its own.
    func reject(_ error: HTTPParseError, retryAfter: Int64? = nil) {
        // A streamed body's request is already known (id, route): its rejection is logged as it.
        let streamedRequest = machine.isReceivingStreamedBody ? machine.unansweredRequest : nil
        guard case .writeRejection(let rejection) = machine.rejected() else {
            preconditionFailure("a rejection answers with an error response")
        }
        if streamedRequest != nil {
            failInboundBody(
                HTTPRequestBody.FramingError(
                    status: error.status, reason: error.reason, errorResponse: core.hooks.errorResponse))
        }
        let id = streamedRequest?.id ?? owner.nextRequestID()
        var response = core.hooks.errorResponse(
            HTTPErrorContext(
                status: error.status, reason: error.reason, requestID: id, request: streamedRequest))
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        let head = rejection.head
        let request =
            streamedRequest
            ?? HTTPRequest(
                method: head?.method ?? HTTPMethod(""), target: head?.target ?? "", id: id, remoteAddress: remoteAddress)
        write(
            response, method: head?.method ?? .get, version: head?.version ?? .http1_1, request: request, requestID: id,
            startedAt: rejection.startedAt, keepAlive: false)
        flush()
    }

    func write(
        _ response: HTTPResponse, method: HTTPMethod, version: HTTPVersion, request: HTTPRequest,
        requestID: String, startedAt: UInt64, keepAlive: Bool
    ) {
        let status = response.status
        let sendsBody = !status.forbidsBody && method != .head
        let connectionField: ResponseHeadWriter.ConnectionField =
            !keepAlive ? .close : (version == .http1_0 ? .keepAlive : .none)
        var head: [UInt8] = []
        head.reserveCapacity(256 + (tls != nil && sendsBody ? response.body.count : 0))
        // Only HEAD answers to streamed responses get here: announce the framing a GET would get
        // (RFC 9110 §9.3.2), its length when known.
        let streamed = response.stream != nil
        ResponseHeadWriter.write(
            status: status, headers: response.headers,
            contentLength: status.forbidsBody ? nil : streamed ? response.streamLength : response.body.count,
            chunked: streamed && response.streamLength == nil && !status.forbidsBody, date: owner.date(), requestID: requestID,
            connection: connectionField, into: &head)
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

    func flush() {
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

    func writePlain() -> IOResult {
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

    func writeTLS() -> IOResult {
        guard let tls else { return .failed(EBADF) }
        let start = outboundOffset
        return outbound[0].withUnsafeBytes { raw in
            tls.write(UnsafeRawBufferPointer(rebasing: raw[start...]))
        }
    }
}
