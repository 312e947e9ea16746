import Foundation

/// Storing a blob (docs/architecture.md#shared-blobs), written once over a connection: a
/// context's writes, the graph copier and the blob migration all store values this way.
extension SQLConnection {
    /// Stores `bytes` once per content and returns the key a record's column holds. An existing
    /// blob with the same key is used as it is (equal hashes, equal bytes) and held
    /// (`SQLRowLock.keyShare`) until this transaction ends, so that a sweep running beside it
    /// cannot delete it before the reference is written; one a sweep deleted meanwhile is stored
    /// again.
    func storeBlob(_ bytes: Data) throws -> Data {
        let hash = BlobDigest.sha256(bytes)
        let blobs = BlobTables.blobs
        while true {
            let inserted = try perform(
                "INSERT INTO \(blobs) (\"hash\", \"size\") VALUES (\(Dialect.parameter(1)), \(Dialect.parameter(2))) ON CONFLICT DO NOTHING",
                arguments: [.bytes(hash), .integer(Int64(bytes.count))])
            if inserted > 0 {
                try insertChunks(hash: hash, bytes: bytes)
                return hash
            }
            var held = false
            try forEachRow(
                "SELECT 1 FROM \(blobs) WHERE \"hash\" = \(Dialect.parameter(1))\(Dialect.rowLock(.keyShare))", arguments: [.bytes(hash)]
            ) { _ in held = true }
            if held { return hash }
        }
    }

    /// The chunks of new blob `hash`, in order; an empty value is one empty chunk.
    private func insertChunks(hash: Data, bytes: Data) throws {
        let all = Data(bytes)
        let sql = "INSERT INTO \(BlobTables.chunks) (\"hash\", \"n\", \"bytes\") VALUES (\((1...3).map(Dialect.parameter).joined(separator: ", ")))"
        var number: Int64 = 0
        var offset = 0
        repeat {
            let end = min(offset + StoreSchema.blobChunkSize, all.count)
            try perform(sql, arguments: [.bytes(hash), .integer(number), .bytes(all.subdata(in: offset..<end))])
            number += 1
            offset = end
        } while offset < all.count
    }
}
