import Foundation

/// A stored blob as a whole-store move carries it: its key (the SHA-256 of its bytes) and size.
/// Its bytes follow as chunks of at most `StoreSchema.blobChunkSize`.
public struct TransferBlob: Sendable, Hashable {
    public let hash: Data
    public let size: Int64

    public init(hash: Data, size: Int64) {
        self.hash = hash
        self.size = size
    }
}
