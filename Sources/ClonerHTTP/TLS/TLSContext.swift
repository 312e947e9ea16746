import COpenSSL

/// The server's OpenSSL context: certificate, key and protocol settings, shared by all loops.
///
/// `@unchecked Sendable`: an SSL_CTX is safe to use from several threads for `SSL_new` once it
/// is configured, and this type configures it fully in `init` and never changes it afterwards.
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer

    init(_ configuration: TLSConfiguration) throws(TLSError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError("SSL_CTX_new") }
        self.context = context
        // TLS 1.2 is the oldest version still considered safe (RFC 8996 deprecates 1.0 and 1.1).
        SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // Partial writes and moving buffers: the connection retries a write with whatever is
        // left of its queue, which may live at a new address after Swift array operations.
        SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        // Client-initiated renegotiation is a cheap CPU DoS and nothing here needs it.
        SSL_CTX_set_options(context, UInt64(1) << 30)  // SSL_OP_NO_RENEGOTIATION (a macro Swift cannot import)
        guard SSL_CTX_use_certificate_chain_file(context, configuration.certificateChainPath) == 1 else {
            throw TLSError("loading certificate chain", path: configuration.certificateChainPath)
        }
        guard SSL_CTX_use_PrivateKey_file(context, configuration.privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError("loading private key", path: configuration.privateKeyPath)
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError("private key does not match certificate", path: configuration.privateKeyPath)
        }
    }

    deinit { SSL_CTX_free(context) }
}
