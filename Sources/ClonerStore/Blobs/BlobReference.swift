import Foundation

/// A stored binary value as the resource routes serve it: its key (the ETag) and length.
public struct BlobReference: Sendable, Equatable {
    public let hash: Data
    public let size: Int64

    public init(hash: Data, size: Int64) {
        self.hash = hash
        self.size = size
    }
}
