import COpenSSL

/// One connection's TLS state over its non-blocking socket. OpenSSL reads and writes the socket
/// itself; WANT_READ / WANT_WRITE are handed back to the connection, which asks the event loop
/// for the matching readiness. Loop-confined like its connection, hence not Sendable.
final class TLSSession {
    private let ssl: OpaquePointer

    init?(context: TLSContext, fd: Int32) {
        guard let ssl = SSL_new(context.context) else { return nil }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        SSL_set_accept_state(ssl)
    }

    deinit { SSL_free(ssl) }

    enum HandshakeResult { case done, wantRead, wantWrite, failed }

    func handshake() -> HandshakeResult {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .done }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        default:
            ERR_clear_error()
            return .failed
        }
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> IOResult {
        ERR_clear_error()
        let result = SSL_read(ssl, buffer, Int32(clamping: count))
        if result > 0 { return .bytes(Int(result)) }
        return outcome(of: result)
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> IOResult {
        ERR_clear_error()
        let result = SSL_write(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if result > 0 { return .bytes(Int(result)) }
        return outcome(of: result)
    }

    /// Bytes OpenSSL already decrypted: epoll cannot see them, so the connection reads them
    /// before waiting for the socket again.
    var hasPendingBytes: Bool { SSL_pending(ssl) > 0 }

    /// Sends close_notify, without waiting for the peer's.
    func shutdown() {
        ERR_clear_error()
        SSL_shutdown(ssl)
        ERR_clear_error()
    }

    private func outcome(of result: Int32) -> IOResult {
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ: return .wouldBlock(wantsWrite: false)
        case SSL_ERROR_WANT_WRITE: return .wouldBlock(wantsWrite: true)
        case SSL_ERROR_ZERO_RETURN: return .eof
        default:
            ERR_clear_error()
            return result == 0 ? .eof : .failed(code)
        }
    }
}
