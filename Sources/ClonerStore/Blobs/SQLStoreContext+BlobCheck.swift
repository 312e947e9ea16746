import Foundation

/// `cloner check-store`'s look at the blobs, written once: references without a blob, blobs
/// without a reference, blobs whose chunks do not hash to their key or add up to their size, then
/// the uploads not finished.
extension SQLStoreContext {
    /// At most `limit` problems of each kind, stopping once `limit` are found.
    func checkBlobs(limit: Int) throws -> [BlobProblem] {
        var problems: [BlobProblem] = []
        let blobs = BlobTables.blobs
        for (entity, column) in schema.binaryColumns where problems.count < limit {
            try connection.forEachRow(
                """
                SELECT r."_id", r.\(quoted(column)) FROM \(quoted(entity)) r WHERE r.\(quoted(column)) IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM \(blobs) b WHERE b."hash" = r.\(quoted(column))) LIMIT \(limit)
                """, arguments: []
            ) { problems.append(.missingBlob(entity: entity, attribute: column, id: $0.int64(0), hash: $0.data(1).lowercaseHex)) }
        }
        // A pending upload (size -1) is referenced by nothing yet: reported as what it is, below.
        var unreferenced = ["b.\"size\" >= 0"]
        unreferenced += schema.binaryColumns.map { "NOT EXISTS (SELECT 1 FROM \(quoted($0.entity)) r WHERE r.\(quoted($0.column)) = b.\"hash\")" }
        let pinned = schema.defaultBlobHashes
        if !pinned.isEmpty { unreferenced.append("NOT (b.\"hash\" \(Dialect.amongBlobKeys(1)))") }
        try connection.forEachRow(
            "SELECT b.\"hash\", b.\"size\" FROM \(blobs) b WHERE \(unreferenced.joined(separator: " AND ")) LIMIT \(limit)",
            arguments: pinned.isEmpty ? [] : [.blobKeys(pinned)]
        ) { problems.append(.unreferencedBlob(hash: $0.data(0).lowercaseHex, size: $0.int64(1))) }
        try checkBlobChunks(limit: limit, into: &problems)
        guard problems.count < limit else { return problems }
        try connection.forEachRow(
            """
            SELECT b."hash", count(c."n"), coalesce(sum(\(Dialect.octetLength("c.\"bytes\""))), 0)
            FROM \(blobs) b LEFT JOIN \(BlobTables.chunks) c ON c."hash" = b."hash"
            WHERE b."size" = -1 GROUP BY b."hash" ORDER BY b."hash" LIMIT \(limit - problems.count)
            """, arguments: []
        ) { problems.append(.pendingUpload(key: $0.data(0).lowercaseHex, chunks: $0.int64(1), bytes: $0.int64(2))) }
        return problems
    }

    /// Each stored blob hashed from its chunks, read one at a time by key, so no more than one
    /// chunk is in memory whatever the backend holds of a result. The first chunk missing ends
    /// a blob's check; a blob with no chunk at all holds no bytes (a store moved from another may
    /// keep an empty value so).
    private func checkBlobChunks(limit: Int, into problems: inout [BlobProblem]) throws {
        var all: [(hash: Data, size: Int64, chunks: Int64)] = []
        try connection.forEachRow(
            """
            SELECT b."hash", b."size", (SELECT count(*) FROM \(BlobTables.chunks) c WHERE c."hash" = b."hash")
            FROM \(BlobTables.blobs) b WHERE b."size" >= 0 ORDER BY b."hash"
            """, arguments: []
        ) { all.append(($0.data(0), $0.int64(1), $0.int64(2))) }
        let chunk = "SELECT \"bytes\" FROM \(BlobTables.chunks) WHERE \"hash\" = \(Dialect.parameter(1)) AND \"n\" = \(Dialect.parameter(2))"
        for blob in all where problems.count < limit {
            let digest = BlobDigest()
            var length: Int64 = 0
            var missing: Int64?
            for number in 0..<(blob.chunks == 0 && blob.size > 0 ? 1 : blob.chunks) {
                var bytes: Data?
                try connection.forEachRow(chunk, arguments: [.bytes(blob.hash), .integer(number)]) { bytes = $0.data(0) }
                guard let bytes else {
                    missing = number
                    break
                }
                digest.update(bytes)
                length += Int64(bytes.count)
            }
            let actual = digest.finish()
            if let missing {
                problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "chunk \(missing) is missing"))
            } else if actual != blob.hash {
                problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "its bytes hash to \(actual.lowercaseHex)"))
            } else if length != blob.size {
                problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "holds \(length) bytes, its row says \(blob.size)"))
            }
        }
    }
}
