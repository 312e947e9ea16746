#if canImport(Glibc)
import Glibc
#endif

/// Reading a connection: bytes from the socket (or OpenSSL) into its buffer, parsed into
/// requests, the PROXY header before them, and input discarded while lingering.
extension Connection {
    func readOnce() {
        // A streamed body comes in larger reads: fewer, larger chunks for its handler.
        let minimum = machine.isReceivingStreamedBody ? 32 * 1024 : 4096
        var space = buffer.reserveWritable(minimum)
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
                    space = buffer.reserveWritable(minimum)
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
    func process() {
        if proxyPeerHost != nil && !readProxyHeader() { return }
        while parseAndDispatch() {
            if !machine.isClosed { flush() }
            guard machine.activity == .reading && !isOutputBacklogged else { return }
        }
        if !outbound.isEmpty && !machine.isClosed { flush() }
    }

    /// The loop of `process`; true when it stopped because the queued answers passed the bound.
    func parseAndDispatch() -> Bool {
        while machine.activity == .reading {
            if isOutputBacklogged { return true }
            if machine.isBodyPaused { return false }
            if !buffer.isEmpty { machine.requestBytesBuffered(now: owner.loop.now) }
            var event: RequestParser.Event?
            var consumed = 0
            let streamed = machine.isReceivingStreamedBody
            do throws(HTTPParseError) {
                try buffer.withReadableBytes { bytes throws(HTTPParseError) in
                    let step = try parser.parse(bytes) { head in resolveAtHead(head) }
                    consumed = step.consumed
                    event = step.event
                    if case .body(let range)? = step.event {
                        if streamed {
                            collectBody(UnsafeBufferPointer(rebasing: bytes[range]))
                        } else if machine.isDiscardingBody {
                            // The rest of an answered request's body: read, never parsed as requests.
                        } else {
                            machine.bodyReceived(UnsafeBufferPointer(rebasing: bytes[range]))
                        }
                    }
                }
            } catch {
                reject(error)
                return false
            }
            buffer.consume(consumed)
            switch event {
            case .head(let head)?:
                requestBodyBytes = 0
                let now = owner.loop.now
                if case .matched(.streamed, _, _)? = headResolution, head.framing != .none {
                    perform(machine.streamedHeadReceived(head, now: now, bodyAlreadyBuffered: !buffer.isEmpty))
                } else {
                    perform(machine.headReceived(head, now: now, bodyAlreadyBuffered: !buffer.isEmpty))
                }
            case .body(let range)?:
                requestBodyBytes += range.count
                if streamed { machine.streamedBodyReceived(range.count) }
            case .end?:
                if streamed {
                    handOverBody()
                    inboundBody?.finish()
                    inboundBody = nil
                }
                perform(machine.requestComplete())
            case nil:
                if consumed == 0 {
                    if streamed { handOverBody() }
                    perform(
                        machine.inputExhausted(
                            bufferEmpty: buffer.isEmpty, parserIdle: parser.isIdle, outputPending: !outbound.isEmpty))
                    return false
                }
            }
        }
        return false
    }

    /// The body limit of the request whose head the parser just read: its route's, so a route
    /// streaming large bodies is asked before the framing checks. The resolution is kept for the
    /// request's dispatch.
    private func resolveAtHead(_ head: RequestHead) -> Int {
        let resolution = core.router.resolve(head.method, path: HTTPRequest.path(of: head.target))
        headResolution = resolution
        guard case .matched(let handler, _, _) = resolution else { return core.limits.maxBodyLength }
        return handler.maxBodyBytes(default: core.limits.maxBodyLength)
    }

    /// Adds parsed bytes of a streamed body to the piece being collected, handing over each piece
    /// that reaches `requestBodyChunk`.
    private func collectBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        while pendingBodyChunk.count + rest.count >= Self.requestBodyChunk {
            let room = Self.requestBodyChunk - pendingBodyChunk.count
            pendingBodyChunk.append(contentsOf: rest.prefix(room))
            rest = rest.dropFirst(room)
            handOverBody()
        }
        pendingBodyChunk.append(contentsOf: rest)
    }

    /// Hands the streamed body bytes parsed so far to the handler's queue, and stops reading when
    /// the handler is behind by more than its window.
    func handOverBody() {
        guard !pendingBodyChunk.isEmpty else { return }
        let chunk = pendingBodyChunk
        pendingBodyChunk = []
        pendingBodyChunk.reserveCapacity(min(Self.requestBodyChunk, chunk.count))
        if inboundBody?.append(chunk) == true { machine.streamedBodyPaused() }
    }

    /// The handler of streamed request `number` started reading, or caught up (on the loop thread).
    func requestBodySignal(_ number: Int, _ signal: HTTPRequestBody.Signal) {
        switch signal {
        case .started:
            perform(machine.streamedBodyStarted(number: number))
        case .drained:
            guard machine.streamedBodyDrained(number: number, now: owner.loop.now) else { return }
            process()
            if machine.activity == .reading && !machine.isBodyPaused && tls?.hasPendingBytes == true {
                readOnce()
                process()
            }
        }
        updateInterest()
    }

    /// Ends the streamed body, if one is being received, with `error`.
    func failInboundBody(_ error: any Error) {
        pendingBodyChunk = []
        inboundBody?.fail(error)
        inboundBody = nil
    }

    /// The PROXY protocol header a trusted proxy sends before the client's first byte. False
    /// while it is incomplete (the head deadline covers it, as the request's first bytes) or when
    /// it ended the connection: malformed or missing, closed; naming a client over its share, 503.
    func readProxyHeader() -> Bool {
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

    func discardInput() {
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
}
