import Foundation

/// One thing `checkBlobs` found wrong with a store's blobs, said so an operator can find it.
public enum BlobProblem: Sendable, Equatable, CustomStringConvertible {
    /// A record refers to a blob that is not there (the database was written with its foreign
    /// keys off, or by hand).
    case missingBlob(entity: String, attribute: String, id: Int64, hash: String)
    /// A blob nothing refers to and the model does not name as a default.
    case unreferencedBlob(hash: String, size: Int64)
    /// A blob whose bytes do not hash to its key, or do not add up to its size.
    case corruptBlob(hash: String, reason: String)

    public var description: String {
        switch self {
        case let .missingBlob(entity, attribute, id, hash):
            return "\(entity) \(id): \(attribute) refers to blob \(hash), which is missing"
        case let .unreferencedBlob(hash, size):
            return "blob \(hash) (\(size) bytes) is referenced by no record"
        case let .corruptBlob(hash, reason):
            return "blob \(hash): \(reason)"
        }
    }
}
