import ClonerModel
import Foundation

/// Blob storage on SQLite (docs/architecture.md#shared-blobs).
extension SQLiteStoreContext {
    /// Stores `bytes` once per content and returns the key a record's column holds. An existing
    /// blob with the same key is used as it is (INSERT OR IGNORE): equal hashes, equal bytes.
    func storeBlob(_ bytes: Data) throws -> Data {
        try Self.storeBlob(bytes, on: connection)
    }

    /// Written once: an import stores a blob per row, and quoting the names each time showed in
    /// its profile.
    private static let insertBlobSQL = "INSERT OR IGNORE INTO \(quoted(StoreSchema.blobTable)) (\"hash\", \"size\") VALUES (?, ?)"
    private static let insertChunkSQL = "INSERT INTO \(quoted(StoreSchema.blobChunkTable)) (\"hash\", \"n\", \"bytes\") VALUES (?, ?, ?)"

    static func storeBlob(_ bytes: Data, on connection: SQLiteConnection) throws -> Data {
        let hash = BlobDigest.sha256(bytes)
        try connection.execute(insertBlobSQL, [.blob(hash), .integer(Int64(bytes.count))])
        guard connection.changes > 0 else { return hash }
        let all = Data(bytes)
        var number: Int64 = 0
        var offset = 0
        repeat {
            let end = min(offset + StoreSchema.blobChunkSize, all.count)
            try connection.execute(insertChunkSQL, [.blob(hash), .integer(number), .blob(all.subdata(in: offset..<end))])
            number += 1
            offset = end
        } while offset < all.count
        return hash
    }

    /// The value as its column stores it: a binary value by its (stored) blob's key.
    func storedValue(_ value: AttributeValue) throws -> SQLiteValue {
        if case .binary(let bytes) = value { return .blob(try storeBlob(bytes)) }
        return value.sqlValue
    }

    /// SQLite holds every value it is given: the names are for the backends that refuse some.
    func storedValue(_ value: AttributeValue, entity: String, attribute: String) throws -> SQLiteValue {
        try storedValue(value)
    }

    /// Deletes the blobs among `candidates` that no record refers to any more (and that are not a
    /// model default): one statement, the keys bound as one parameter and split in SQL.
    func sweepBlobs(_ candidates: Set<Data>) throws {
        guard !candidates.isEmpty else { return }
        var keys = Data()
        for key in candidates.sorted(by: { $0.lexicographicallyPrecedes($1) }) { keys.append(key) }
        try connection.execute(sweepSQL, [.blob(keys)])
    }

    private var sweepSQL: String {
        let blobs = quoted(StoreSchema.blobTable)
        var conditions = schema.binaryColumns.map { "NOT EXISTS (SELECT 1 FROM \(quoted($0.entity)) r WHERE r.\(quoted($0.column)) = \(blobs).\"hash\")" }
        let pinned = schema.defaultBlobHashes
        if !pinned.isEmpty { conditions.append("\"hash\" NOT IN (\(pinned.map { "X'\($0.lowercaseHex)'" }.joined(separator: ", ")))") }
        return """
            WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE (i + 1) * \(BlobDigest.length) < length(?1))
            DELETE FROM \(blobs) WHERE "hash" IN (SELECT substr(?1, i * \(BlobDigest.length) + 1, \(BlobDigest.length)) FROM k)
            """ + conditions.map { " AND " + $0 }.joined()
    }

    /// Stores the model's default values, so a clone's `exclude` can write their keys.
    func storeDefaultBlobs() throws {
        for bytes in schema.defaultBlobValues { _ = try storeBlob(bytes) }
    }

    /// The blob `attribute` of object `id` refers to; nil when the object is missing or the value
    /// is null.
    public func blobReference(entity: String, id: Int64, attribute: String) throws -> BlobReference? {
        var found: BlobReference?
        try connection.forEachRow(
            """
            SELECT b."hash", b."size" FROM \(quoted(entity)) r JOIN \(quoted(StoreSchema.blobTable)) b ON b."hash" = r.\(quoted(attribute))
            WHERE r."_id" = ?
            """, [.integer(id)]
        ) { found = BlobReference(hash: $0.data(0), size: $0.int64(1)) }
        return found
    }

    /// Bytes `range` of blob `hash`, handed to `body` a chunk's part at a time (`substr` on the
    /// chunk rows, so no more than one chunk is in memory). False when the blob is gone.
    public func readBlob(hash: Data, range: Range<Int64>, _ body: (Data) throws -> Void) throws -> Bool {
        guard !range.isEmpty else { return try connection.scalar("SELECT 1 FROM \(quoted(StoreSchema.blobTable)) WHERE \"hash\" = ?", [.blob(hash)]) != nil }
        let size = Int64(StoreSchema.blobChunkSize)
        var found = false
        for number in (range.lowerBound / size)...((range.upperBound - 1) / size) {
            let start = max(range.lowerBound - number * size, 0)
            let end = min(range.upperBound - number * size, size)
            var part: Data?
            try connection.forEachRow(
                "SELECT substr(\"bytes\", ?, ?) FROM \(quoted(StoreSchema.blobChunkTable)) WHERE \"hash\" = ? AND \"n\" = ?",
                [.integer(start + 1), .integer(end - start), .blob(hash), .integer(number)]
            ) { part = $0.data(0) }
            guard let part else { return false }
            found = true
            try body(part)
        }
        return found
    }

    /// Every reference has its blob, every blob a reference (or is a model default), and each
    /// blob's chunks hash to its key and add up to its size. At most `limit` problems.
    public func checkBlobs(limit: Int) throws -> [BlobProblem] {
        var problems: [BlobProblem] = []
        let blobs = quoted(StoreSchema.blobTable)
        for (entity, column) in schema.binaryColumns where problems.count < limit {
            try connection.forEachRow(
                """
                SELECT r."_id", r.\(quoted(column)) FROM \(quoted(entity)) r WHERE r.\(quoted(column)) IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM \(blobs) b WHERE b."hash" = r.\(quoted(column))) LIMIT \(limit)
                """
            ) { problems.append(.missingBlob(entity: entity, attribute: column, id: $0.int64(0), hash: $0.data(1).lowercaseHex)) }
        }
        var unreferenced = schema.binaryColumns.map { "NOT EXISTS (SELECT 1 FROM \(quoted($0.entity)) r WHERE r.\(quoted($0.column)) = b.\"hash\")" }
        let pinned = schema.defaultBlobHashes
        if !pinned.isEmpty { unreferenced.append("b.\"hash\" NOT IN (\(pinned.map { "X'\($0.lowercaseHex)'" }.joined(separator: ", ")))") }
        // A pending upload (size -1) is referenced by nothing yet: reported as what it is, below.
        unreferenced.append("b.\"size\" >= 0")
        try connection.forEachRow(
            "SELECT b.\"hash\", b.\"size\" FROM \(blobs) b WHERE \(unreferenced.joined(separator: " AND ")) LIMIT \(limit)"
        ) {
            problems.append(.unreferencedBlob(hash: $0.data(0).lowercaseHex, size: $0.int64(1)))
        }
        // One pass over the chunks in key order, hashing as they come: one chunk in memory.
        var current: (hash: Data, size: Int64)?
        var digest = BlobDigest(), length: Int64 = 0, expected: Int64 = 0
        func finish() {
            guard let blob = current, problems.count < limit else { return }
            let actual = digest.finish()
            if actual != blob.hash {
                problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "its bytes hash to \(actual.lowercaseHex)"))
            } else if length != blob.size {
                problems.append(.corruptBlob(hash: blob.hash.lowercaseHex, reason: "holds \(length) bytes, its row says \(blob.size)"))
            }
        }
        try connection.forEachRow(
            """
            SELECT b."hash", b."size", c."n", c."bytes" FROM \(blobs) b LEFT JOIN \(quoted(StoreSchema.blobChunkTable)) c ON c."hash" = b."hash"
            WHERE b."size" >= 0 ORDER BY b."hash", c."n"
            """
        ) { row in
            let hash = row.data(0)
            if current?.hash != hash {
                finish()
                current = (hash, row.int64(1))
                digest = BlobDigest()
                length = 0
                expected = 0
            }
            guard !row.isNull(2) else { return }
            if row.int64(2) != expected, problems.count < limit {
                problems.append(.corruptBlob(hash: hash.lowercaseHex, reason: "chunk \(expected) is missing"))
            }
            expected = row.int64(2) + 1
            let bytes = row.data(3)
            digest.update(bytes)
            length += Int64(bytes.count)
        }
        finish()
        guard problems.count < limit else { return problems }
        try connection.forEachRow(
            """
            SELECT b."hash", count(c."n"), coalesce(sum(length(c."bytes")), 0)
            FROM \(blobs) b LEFT JOIN \(quoted(StoreSchema.blobChunkTable)) c ON c."hash" = b."hash"
            WHERE b."size" = -1 GROUP BY b."hash" ORDER BY b."hash" LIMIT \(limit - problems.count)
            """
        ) { problems.append(.pendingUpload(key: $0.data(0).lowercaseHex, chunks: $0.int64(1), bytes: $0.int64(2))) }
        return problems
    }
}

// MARK: - streamed uploads

extension SQLiteStoreContext {
    public func beginUpload(key: Data) throws {
        try connection.execute("INSERT INTO \(quoted(StoreSchema.blobTable)) (\"hash\", \"size\") VALUES (?, -1)", [.blob(key)])
    }

    public func appendUpload(key: Data, number: Int64, bytes: Data) throws {
        try connection.execute(
            "INSERT INTO \(quoted(StoreSchema.blobChunkTable)) (\"hash\", \"n\", \"bytes\") VALUES (?, ?, ?)",
            [.blob(key), .integer(number), .blob(bytes)])
    }

    /// The real key reaches the chunks through their ON UPDATE CASCADE. (SQLite rewrites each
    /// chunk row to change its key: the price of never holding the single writer for an upload.)
    public func finishUpload(key: Data, hash: Data, size: Int64) throws {
        let blobs = quoted(StoreSchema.blobTable)
        if try connection.scalar("SELECT 1 FROM \(blobs) WHERE \"hash\" = ?", [.blob(hash)]) != nil {
            try connection.execute("DELETE FROM \(blobs) WHERE \"hash\" = ?", [.blob(key)])
        } else {
            try connection.execute("UPDATE \(blobs) SET \"hash\" = ?, \"size\" = ? WHERE \"hash\" = ?", [.blob(hash), .integer(size), .blob(key)])
        }
    }

    public func pendingUploads() throws -> [Data: Int64] {
        var pending: [Data: Int64] = [:]
        try connection.forEachRow(
            """
            SELECT b."hash", (SELECT count(*) FROM \(quoted(StoreSchema.blobChunkTable)) c WHERE c."hash" = b."hash")
            FROM \(quoted(StoreSchema.blobTable)) b WHERE b."size" = -1
            """
        ) { pending[$0.data(0)] = $0.int64(1) }
        return pending
    }

    public func discardUpload(key: Data) throws {
        try connection.execute("DELETE FROM \(quoted(StoreSchema.blobTable)) WHERE \"hash\" = ? AND \"size\" = -1", [.blob(key)])
    }

    public func setBlob(entity: String, id: Int64, attribute: String, hash: Data, expectedVersion: Int64?) throws -> Int64 {
        guard let version = try version(entity: entity, id: id) else { throw StoreError.notFound(entity: entity, id: id) }
        if let expectedVersion, expectedVersion != version {
            throw StoreError.versionConflict(entity: entity, id: id, expected: expectedVersion, actual: version)
        }
        let dropped = try blobKeys(entity: entity, columns: [attribute], ids: [id])
        if dropped == [hash] { return version }
        try connection.execute(
            "UPDATE \(quoted(entity)) SET \(quoted(attribute)) = ?, \"_version\" = \"_version\" + 1 WHERE \"_id\" = ?",
            [.blob(hash), .integer(id)])
        try sweepBlobs(dropped)
        return version + 1
    }
}
