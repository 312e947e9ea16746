#if canImport(Glibc)
import Glibc
#endif

/// Reading a connection: bytes from the socket (or OpenSSL) into its buffer, parsed into
/// requests, the PROXY header before them, and input discarded while lingering.
extension Connection {
    func readOnce() {
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
