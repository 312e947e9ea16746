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

    /// Each stored blob hashed from its chunks, read by key in pages of blobs and runs of chunks
    /// (`chunkRun` chunks, a few MiB, whatever the backend holds of a result): a store of many
    /// blobs is checked in one pass over the chunk table, never a query per chunk or every blob
    /// row held at once.
    private func checkBlobChunks(limit: Int, into problems: inout [BlobProblem]) throws {
        let blobPage = 256
        let chunkRun = 8
        let (p1, p2, p3) = (Dialect.parameter(1), Dialect.parameter(2), Dialect.parameter(3))
        let chunks = """
            SELECT c."hash", c."n", c."bytes" FROM \(BlobTables.chunks) c
            WHERE (c."hash" > \(p1) OR (c."hash" = \(p1) AND c."n" > \(p2))) AND c."hash" <= \(p3)
            ORDER BY c."hash", c."n" LIMIT \(chunkRun)
            """
        var after: Data?
        while problems.count < limit {
            var page: [(hash: Data, size: Int64)] = []
            try connection.forEachRow(
                """
                SELECT b."hash", b."size" FROM \(BlobTables.blobs) b WHERE b."size" >= 0\(after == nil ? "" : " AND b.\"hash\" > \(p1)")
                ORDER BY b."hash" LIMIT \(blobPage)
                """, arguments: after.map { [.bytes($0)] } ?? []
            ) { page.append(($0.data(0), $0.int64(1))) }
            guard let first = page.first, let last = page.last else { return }
            var scan = BlobChunkScan(blobs: page)
            var position = (hash: first.hash, number: Int64(-1))
            var read = chunkRun
            while read == chunkRun {
                read = 0
                try connection.forEachRow(chunks, arguments: [.bytes(position.hash), .integer(position.number), .bytes(last.hash)]) { row in
                    position = (row.data(0), row.int64(1))
                    scan.feed(hash: position.hash, number: position.number, bytes: row.data(2))
                    read += 1
                }
            }
            problems += scan.finish().prefix(limit - problems.count)
            after = last.hash
        }
    }
}
