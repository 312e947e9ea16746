import COpenSSL

/// SHA-256 over bytes fed a piece at a time: the fingerprint of a streamed request body, which is
/// never held whole.
///
/// Not `Sendable`: the context is fed by one task, in order.
final class StreamingDigest {
    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed: out of memory") }
        self.context = context
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "EVP_DigestInit_ex(SHA-256) failed")
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: [UInt8]) {
        let ok = bytes.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        precondition(ok == 1, "EVP_DigestUpdate failed")
    }

    /// The digest, in lower-case hex; the digest is finished by this call.
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        precondition(ok == 1 && length == 32, "EVP_DigestFinal_ex failed")
        return digest.lowercaseHex
    }
}
