import Foundation

/// The check of one page of stored blobs against their chunks, fed the chunks in key order as
/// they arrive: each blob is hashed as its chunks pass, so no blob is ever held whole and the
/// scan reads each chunk once, in runs, instead of one query per chunk.
struct BlobChunkScan {
    /// The page's blobs (hash and size), in key order.
    private let blobs: [(hash: Data, size: Int64)]
    /// The blob whose chunks arrive now.
    private var index = 0
    private var digest = BlobDigest()
    private var expected: Int64 = 0
    private var length: Int64 = 0
    private var missing: Int64?
    private(set) var problems: [BlobProblem] = []

    init(blobs: [(hash: Data, size: Int64)]) {
        self.blobs = blobs
    }

    /// One chunk, in (hash, number) order. A chunk of no blob of the page (nothing should hold
    /// one: the chunks' foreign key) is passed over.
    mutating func feed(hash: Data, number: Int64, bytes: Data) {
        while index < blobs.count, blobs[index].hash.lexicographicallyPrecedes(hash) { finishBlob() }
        guard index < blobs.count, blobs[index].hash == hash, missing == nil else { return }
        // The first number out of sequence names the chunk that is missing; later ones add nothing.
        guard number == expected else {
            missing = expected
            return
        }
        digest.update(bytes)
        length += Int64(bytes.count)
        expected += 1
    }

    /// The page's remaining blobs, once every chunk up to its last key has been fed.
    mutating func finish() -> [BlobProblem] {
        while index < blobs.count { finishBlob() }
        return problems
    }

    /// A blob with no chunk at all holds no bytes (a store moved from another may keep an empty
    /// value so); one whose size says otherwise misses its first chunk.
    private mutating func finishBlob() {
        let blob = blobs[index]
        let actual = digest.finish()
        if missing == nil, expected == 0, blob.size > 0 { missing = 0 }
        if let missing {
            problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "chunk \(missing) is missing"))
        } else if actual != blob.hash {
            problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "its bytes hash to \(actual.lowercaseHex)"))
        } else if length != blob.size {
            problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "holds \(length) bytes, its row says \(blob.size)"))
        }
        index += 1
        digest = BlobDigest()
        (expected, length, missing) = (0, 0, nil)
    }
}
