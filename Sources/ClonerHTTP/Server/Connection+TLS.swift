#if canImport(Glibc)
import Glibc
#endif

/// The TLS side of a connection: the handshake, and the plain-HTTP client that reached the
/// TLS port by mistake.
extension Connection {
    /// TLS needs the other direction to make progress (OpenSSL's WANT_WRITE on a read, WANT_READ
    /// on a write, e.g. during a key update): transport readiness, not connection state.
    struct TLSWaits: OptionSet {
        let rawValue: UInt8
        /// A read (or the handshake) waits for the socket to be writable.
        static let readNeedsWritable = TLSWaits(rawValue: 1)
        /// A write waits for the socket to be readable.
        static let writeNeedsReadable = TLSWaits(rawValue: 2)
    }

    func continueHandshake() {
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
                break  // nothing to look at yet: OpenSSL finds nothing to read either
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
    func peekFirstBytes() -> FirstBytes {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        guard count > 0 else { return .none }
        guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[0]) else { return .other }
        return .plaintext(Array(bytes[..<count]))
    }

    enum FirstBytes {
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
    func answerPlaintextOnSecurePort(_ firstBytes: [UInt8]) {
        tls = nil
        machine.plaintextInsteadOfHandshake(now: owner.loop.now)
        guard case .writeRejection(let rejection) = machine.rejected() else {
            preconditionFailure("a rejection answers with an error response")
        }
        let line = firstBytes.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let printable = { (part: ArraySlice<UInt8>) in part.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
        let method = parts.count >= 2 && printable(parts[0]) ? String(decoding: parts[0], as: UTF8.self) : ""
        let target =
            parts.count >= 2 && parts[1].first == UInt8(ascii: "/") && printable(parts[1])
            ? String(decoding: parts[1], as: UTF8.self) : ""
        let id = owner.nextRequestID()
        let response = core.hooks.errorResponse(
            HTTPErrorContext(
                status: .badRequest, reason: "plain HTTP sent to the HTTPS port: use https://", requestID: id))
        let request = HTTPRequest(method: HTTPMethod(method), target: target, id: id, remoteAddress: remoteAddress)
        write(
            response, method: HTTPMethod(method), version: .http1_1, request: request, requestID: id,
            startedAt: rejection.startedAt, keepAlive: false)
        flush()
    }
}
