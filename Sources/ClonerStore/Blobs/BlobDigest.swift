import COpenSSL
import Foundation

/// SHA-256 of a binary value, the key its blob is stored under. It can be fed as the bytes
/// arrive (an upload is hashed chunk by chunk and never held whole), or given a whole value.
///
/// Not `Sendable`: it owns an OpenSSL digest context that one caller feeds at a time.
public final class BlobDigest {
    /// Bytes in a digest, and so in every reference column.
    public static let length = 32

    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed: out of memory") }
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "EVP_DigestInit_ex(SHA-256) failed")
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update<C: ContiguousBytes>(_ bytes: C) {
        bytes.withUnsafeBytes { buffer in
            guard buffer.count > 0 else { return }
            precondition(EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1, "EVP_DigestUpdate failed")
        }
    }

    /// The digest of everything fed so far; the object is spent afterwards.
    public func finish() -> Data {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &output, &length) == 1 && length == 32, "EVP_DigestFinal_ex failed")
        return Data(output.prefix(Int(length)))
    }

    public static func sha256(_ bytes: Data) -> Data {
        let digest = BlobDigest()
        digest.update(bytes)
        return digest.finish()
    }
}
