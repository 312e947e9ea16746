import Foundation

/// One thing `checkBlobs` found wrong with a store's blobs, or worth telling, said so an operator
/// can find it.
public enum BlobProblem: Sendable, Equatable, CustomStringConvertible {
    /// A record refers to a blob that is not there (the database was written with its foreign
    /// keys off, or by hand).
    case missingBlob(entity: String, attribute: String, id: Int64, hash: String)
    /// A blob nothing refers to and the model does not name as a default.
    case unreferencedBlob(hash: String, size: Int64)
    /// A blob whose bytes do not hash to its key, or do not add up to its size.
    case corruptBlob(hash: String, reason: String)
    /// An upload not finished: its pending blob (a random key, size −1, referenced by nothing) and
    /// the chunks written so far. A live upload's, or one whose process died mid-way (`kill -9`),
    /// which the housekeeping's sweep removes once it writes nothing between two passes. Its
    /// bytes cannot hash to its key, which is no hash; reporting it as corrupt or unreferenced
    /// would send an operator after a problem that is none.
    case pendingUpload(key: String, chunks: Int64, bytes: Int64)

    /// Whether this makes the store inconsistent; a pending upload does not.
    public var isInconsistency: Bool {
        if case .pendingUpload = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case let .missingBlob(entity, attribute, id, hash):
            return "\(entity) \(id): \(attribute) refers to blob \(hash), which is missing"
        case let .unreferencedBlob(hash, size):
            return "blob \(hash) (\(size) bytes) is referenced by no record"
        case let .corruptBlob(hash, reason):
            return "blob \(hash): \(reason)"
        case let .pendingUpload(key, chunks, bytes):
            return
                "pending upload \(key): \(chunks) chunks (\(bytes) bytes) written, not finished — an upload in progress, or one cut short "
                + "(its process died); the hourly housekeeping removes it once it writes nothing between two passes"
        }
    }
}
