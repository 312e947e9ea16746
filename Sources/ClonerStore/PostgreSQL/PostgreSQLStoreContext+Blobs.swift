import ClonerModel
import Foundation

/// Blob storage on PostgreSQL (docs/architecture.md#shared-blobs), safe beside concurrent writers
/// at READ COMMITTED:
///
/// - whoever writes a reference holds a KEY SHARE lock on the blob row until it commits (the
///   immediate foreign-key check takes it; `storeBlob` takes it explicitly for a blob that was
///   already there);
/// - the sweep first locks its candidate blob rows FOR UPDATE (in key order), which waits for
///   those writers, and only then — in a new statement, so with a snapshot that sees what they
///   committed — deletes the candidates nothing refers to. While it holds the lock no new
///   reference can be written; a writer that waited finds the row gone and stores it again.
///
/// A clone copies keys from source rows it holds locked, so those rows — and their references —
/// outlive any sweep that runs beside it.
extension PostgreSQLStoreContext {
    /// Stores `bytes` once per content and returns the key, holding the blob row (KEY SHARE)
    /// until this transaction ends.
    func storeBlob(_ bytes: Data) throws -> Data {
        let hash = BlobDigest.sha256(bytes)
        let blobs = quoted(StoreSchema.blobTable)
        while true {
            let inserted = try run(
                "INSERT INTO \(blobs) (\"hash\", \"size\") VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.bytea(hash), .int8(Int64(bytes.count))]
            ).affectedRows
            if inserted > 0 {
                try insertChunks(hash: hash, bytes: bytes)
                return hash
            }
            // There already: hold it, unless a sweep deleted it meanwhile — then store it again.
            if try run("SELECT 1 FROM \(blobs) WHERE \"hash\" = $1 FOR KEY SHARE", [.bytea(hash)]).rowCount > 0 { return hash }
        }
    }

    /// `storeBlob` for the binary values of a batch of rows at once, their keys in the order of
    /// `values`: a few statements for the batch — insert the new ones, hold (KEY SHARE, in key
    /// order, as the sweep locks) those already there — where one value at a time cost two round
    /// trips per value, most of an import's time.
    func storeBlobs(_ values: [Data]) throws -> [Data] {
        if values.count < 2 { return try values.map(storeBlob) }
        let keys = values.map(BlobDigest.sha256)
        var pending: [Data: Data] = [:]
        for (key, bytes) in zip(keys, values) { pending[key] = bytes }
        let blobs = quoted(StoreSchema.blobTable)
        while !pending.isEmpty {
            let sorted = pending.keys.sorted { $0.lexicographicallyPrecedes($1) }
            var inserted: [Data] = []
            try run(
                "INSERT INTO \(blobs) (\"hash\", \"size\") SELECT * FROM unnest($1, $2) ORDER BY 1 ON CONFLICT DO NOTHING RETURNING \"hash\"",
                [.array(element: .bytea, sorted.map { .bytea($0) }), .array(element: .int8, sorted.map { .int8(Int64(pending[$0]!.count)) })]
            ).forEachRow { inserted.append($0.data(0)) }
            try insertChunks(of: inserted.map { ($0, pending[$0]!) })
            for key in inserted { pending[key] = nil }
            let existing = sorted.filter { pending[$0] != nil }
            guard !existing.isEmpty else { break }
            // There already: hold them; any a sweep deleted meanwhile go round again.
            try run(
                "SELECT \"hash\" FROM \(blobs) WHERE \"hash\" = ANY($1) ORDER BY \"hash\" FOR KEY SHARE",
                [.array(element: .bytea, existing.map { .bytea($0) })]
            ).forEachRow { pending[$0.data(0)] = nil }
        }
        return keys
    }

    /// The chunks of several new blobs, one statement.
    private func insertChunks(of blobs: [(hash: Data, bytes: Data)]) throws {
        guard !blobs.isEmpty else { return }
        var hashes: [PostgreSQLValue] = [], numbers: [PostgreSQLValue] = [], parts: [PostgreSQLValue] = []
        for (hash, bytes) in blobs {
            let all = Data(bytes)
            var number: Int64 = 0
            var offset = 0
            repeat {
                let end = min(offset + StoreSchema.blobChunkSize, all.count)
                hashes.append(.bytea(hash))
                numbers.append(.int8(number))
                parts.append(.bytea(all.subdata(in: offset..<end)))
                number += 1
                offset = end
            } while offset < all.count
        }
        try run(
            "INSERT INTO \(quoted(StoreSchema.blobChunkTable)) (\"hash\", \"n\", \"bytes\") SELECT * FROM unnest($1, $2, $3)",
            [.array(element: .bytea, hashes), .array(element: .int8, numbers), .array(element: .bytea, parts)])
    }

    private func insertChunks(hash: Data, bytes: Data) throws {
        let all = Data(bytes)
        var number: Int64 = 0
        var offset = 0
        repeat {
            let end = min(offset + StoreSchema.blobChunkSize, all.count)
            try run(
                "INSERT INTO \(quoted(StoreSchema.blobChunkTable)) (\"hash\", \"n\", \"bytes\") VALUES ($1, $2, $3)",
                [.bytea(hash), .int8(number), .bytea(all.subdata(in: offset..<end))])
            number += 1
            offset = end
        } while offset < all.count
    }

    /// The parameter for a value of `attribute` as its column stores it: a binary value by its
    /// (stored) blob's key.
    func storedValue(_ value: AttributeValue, entity: String, attribute: String) throws -> PostgreSQLValue {
        if case .binary(let bytes) = value { return .bytea(try storeBlob(bytes)) }
        return try Self.parameter(value, entity: entity, attribute: attribute)
    }

    /// Deletes the blobs among `candidates` nothing refers to any more (and that are not a model
    /// default): lock, then delete, as the type's comment explains. Two statements for any
    /// number of candidates.
    func sweepBlobs(_ candidates: Set<Data>) throws {
        guard !candidates.isEmpty else { return }
        let pinned = Set(schema.defaultBlobHashes)
        let keys = candidates.subtracting(pinned).sorted { $0.lexicographicallyPrecedes($1) }
        guard !keys.isEmpty else { return }
        let blobs = quoted(StoreSchema.blobTable)
        let array = PostgreSQLValue.array(element: .bytea, keys.map { .bytea($0) })
        var locked: [PostgreSQLValue] = []
        try run("SELECT \"hash\" FROM \(blobs) WHERE \"hash\" = ANY($1) ORDER BY \"hash\" FOR UPDATE", [array]).forEachRow {
            locked.append(.bytea($0.data(0)))
        }
        guard !locked.isEmpty else { return }
        let unreferenced = schema.binaryColumns.map { "NOT EXISTS (SELECT 1 FROM \(quoted($0.entity)) r WHERE r.\(quoted($0.column)) = b.\"hash\")" }
        try run(
            "DELETE FROM \(blobs) b WHERE b.\"hash\" = ANY($1)" + unreferenced.map { " AND " + $0 }.joined(),
            [.array(element: .bytea, locked)])
    }

    /// The model's default values, stored so a clone's `exclude` can write their keys.
    func storeDefaultBlobs() throws {
        for bytes in schema.defaultBlobValues { _ = try storeBlob(bytes) }
    }

    func blobReference(entity: String, id: Int64, attribute: String) throws -> BlobReference? {
        let result = try run(
            """
            SELECT b."hash", b."size" FROM \(quoted(entity)) r JOIN \(quoted(StoreSchema.blobTable)) b ON b."hash" = r.\(quoted(attribute))
            WHERE r."_id" = $1
            """, [.int8(id)])
        guard result.rowCount > 0 else { return nil }
        return BlobReference(hash: result[0].data(0), size: result[0].int64(1))
    }

    /// Bytes `range` of blob `hash`, a chunk's part at a time (`substr` on the uncompressed
    /// chunk, so the server reads only those TOAST slices). False when the blob is gone.
    func readBlob(hash: Data, range: Range<Int64>, _ body: (Data) throws -> Void) throws -> Bool {
        guard !range.isEmpty else {
            return try run("SELECT 1 FROM \(quoted(StoreSchema.blobTable)) WHERE \"hash\" = $1", [.bytea(hash)]).rowCount > 0
        }
        let size = Int64(StoreSchema.blobChunkSize)
        for number in (range.lowerBound / size)...((range.upperBound - 1) / size) {
            let start = max(range.lowerBound - number * size, 0)
            let end = min(range.upperBound - number * size, size)
            let result = try run(
                "SELECT substr(\"bytes\", $1::int4, $2::int4) FROM \(quoted(StoreSchema.blobChunkTable)) WHERE \"hash\" = $3 AND \"n\" = $4",
                [.int8(start + 1), .int8(end - start), .bytea(hash), .int8(number)])
            guard result.rowCount > 0 else { return false }
            try body(result[0].data(0))
        }
        return true
    }

    func checkBlobs(limit: Int) throws -> [BlobProblem] {
        var problems: [BlobProblem] = []
        let blobs = quoted(StoreSchema.blobTable)
        for (entity, column) in schema.binaryColumns where problems.count < limit {
            try run(
                """
                SELECT r."_id", r.\(quoted(column)) FROM \(quoted(entity)) r WHERE r.\(quoted(column)) IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM \(blobs) b WHERE b."hash" = r.\(quoted(column))) LIMIT \(limit)
                """
            ).forEachRow { problems.append(.missingBlob(entity: entity, attribute: column, id: $0.int64(0), hash: $0.data(1).lowercaseHex)) }
        }
        let unreferenced = schema.binaryColumns.map { "NOT EXISTS (SELECT 1 FROM \(quoted($0.entity)) r WHERE r.\(quoted($0.column)) = b.\"hash\")" }
        let pinned = PostgreSQLValue.array(element: .bytea, schema.defaultBlobHashes.map { .bytea($0) })
        // A pending upload (size -1) is referenced by nothing yet: reported as what it is, below.
        try run(
            "SELECT b.\"hash\", b.\"size\" FROM \(blobs) b WHERE b.\"size\" >= 0 AND b.\"hash\" <> ALL($1)"
                + unreferenced.map { " AND " + $0 }.joined() + " LIMIT \(limit)", [pinned]
        ).forEachRow {
            problems.append(.unreferencedBlob(hash: $0.data(0).lowercaseHex, size: $0.int64(1)))
        }
        // Each blob hashed from its chunks, fetched one at a time by key, so no more than one
        // chunk is in memory.
        var all: [(hash: Data, size: Int64, chunks: Int64)] = []
        try run(
            """
            SELECT b."hash", b."size", (SELECT count(*) FROM \(quoted(StoreSchema.blobChunkTable)) c WHERE c."hash" = b."hash")
            FROM \(blobs) b WHERE b."size" >= 0 ORDER BY b."hash"
            """
        ).forEachRow { all.append(($0.data(0), $0.int64(1), $0.int64(2))) }
        for blob in all where problems.count < limit {
            let digest = BlobDigest()
            var length: Int64 = 0
            var missing: Int64?
            for number in 0..<max(blob.chunks, 1) {
                let result = try run(
                    "SELECT \"bytes\" FROM \(quoted(StoreSchema.blobChunkTable)) WHERE \"hash\" = $1 AND \"n\" = $2",
                    [.bytea(blob.hash), .int8(number)])
                guard result.rowCount > 0 else { missing = number; break }
                let bytes = result[0].data(0)
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
        guard problems.count < limit else { return problems }
        try run(
            """
            SELECT b."hash", count(c."n"), coalesce(sum(octet_length(c."bytes")), 0)::int8
            FROM \(blobs) b LEFT JOIN \(quoted(StoreSchema.blobChunkTable)) c ON c."hash" = b."hash"
            WHERE b."size" = -1 GROUP BY b."hash" ORDER BY b."hash" LIMIT \(limit - problems.count)
            """
        ).forEachRow { problems.append(.pendingUpload(key: $0.data(0).lowercaseHex, chunks: $0.int64(1), bytes: $0.int64(2))) }
        return problems
    }
}

// MARK: - streamed uploads

extension PostgreSQLStoreContext {
    func pendingUploads() throws -> [Data: Int64] {
        var pending: [Data: Int64] = [:]
        try run(
            """
            SELECT b."hash", (SELECT count(*) FROM \(quoted(StoreSchema.blobChunkTable)) c WHERE c."hash" = b."hash")
            FROM \(quoted(StoreSchema.blobTable)) b WHERE b."size" = -1
            """
        ).forEachRow { pending[$0.data(0)] = $0.int64(1) }
        return pending
    }

    func beginUpload(key: Data) throws {
        try run("INSERT INTO \(quoted(StoreSchema.blobTable)) (\"hash\", \"size\") VALUES ($1, -1)", [.bytea(key)])
    }

    func appendUpload(key: Data, number: Int64, bytes: Data) throws {
        try run(
            "INSERT INTO \(quoted(StoreSchema.blobChunkTable)) (\"hash\", \"n\", \"bytes\") VALUES ($1, $2, $3)",
            [.bytea(key), .int8(number), .bytea(bytes)])
    }

    /// The real key reaches the chunks through their ON UPDATE CASCADE (new row versions that
    /// keep pointing at the same TOAST data: the bytes are not written again). An equal blob
    /// stored meanwhile wins: the pending one goes, and the stored one is held (KEY SHARE) as
    /// `storeBlob` holds it, so a sweep cannot take it before the record points at it.
    func finishUpload(key: Data, hash: Data, size: Int64) throws {
        let blobs = quoted(StoreSchema.blobTable)
        while true {
            if try run("SELECT 1 FROM \(blobs) WHERE \"hash\" = $1 FOR KEY SHARE", [.bytea(hash)]).rowCount > 0 {
                try run("DELETE FROM \(blobs) WHERE \"hash\" = $1", [.bytea(key)])
                return
            }
            do {
                try connection.execute("SAVEPOINT finish_upload")
                try run("UPDATE \(blobs) SET \"hash\" = $1, \"size\" = $2 WHERE \"hash\" = $3", [.bytea(hash), .int8(size), .bytea(key)])
                try connection.execute("RELEASE SAVEPOINT finish_upload")
                return
            } catch let error as PostgreSQLError where error.isUniqueViolation {
                // Another upload of the same bytes finished first: use its blob.
                try connection.execute("ROLLBACK TO SAVEPOINT finish_upload")
            }
        }
    }

    func discardUpload(key: Data) throws {
        try run("DELETE FROM \(quoted(StoreSchema.blobTable)) WHERE \"hash\" = $1 AND \"size\" = -1", [.bytea(key)])
    }

    func setBlob(entity: String, id: Int64, attribute: String, hash: Data, expectedVersion: Int64?) throws -> Int64 {
        guard let version = try scalarInt64("SELECT \"_version\" FROM \(quoted(entity)) WHERE \"_id\" = $1 FOR NO KEY UPDATE", [.int8(id)]) else {
            throw StoreError.notFound(entity: entity, id: id)
        }
        if let expectedVersion, expectedVersion != version {
            throw StoreError.versionConflict(entity: entity, id: id, expected: expectedVersion, actual: version)
        }
        let dropped = try blobKeys(entity: entity, columns: [attribute], ids: [id])
        if dropped == [hash] { return version }
        try run("UPDATE \(quoted(entity)) SET \(quoted(attribute)) = $1, \"_version\" = \"_version\" + 1 WHERE \"_id\" = $2", [.bytea(hash), .int8(id)])
        try sweepBlobs(dropped)
        return version + 1
    }
}
