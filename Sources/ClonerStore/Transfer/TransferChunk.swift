import Foundation

/// One chunk row of a blob: its number within the blob (from 0) and its bytes.
public struct TransferChunk: Sendable, Hashable {
    public let hash: Data
    public let number: Int64
    public let bytes: Data

    public init(hash: Data, number: Int64, bytes: Data) {
        self.hash = hash
        self.number = number
        self.bytes = bytes
    }
}
