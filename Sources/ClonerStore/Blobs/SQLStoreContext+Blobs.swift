import ClonerModel
import Foundation

/// Blob storage (docs/architecture.md#shared-blobs), written once. On PostgreSQL it is safe beside
/// concurrent writers at READ COMMITTED:
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
/// outlive any sweep that runs beside it. On SQLite one writer runs at a time and the lock
/// clauses are empty.
extension SQLStoreContext {
    /// Stores `bytes` once per content and returns the key (`SQLConnection.storeBlob`).
    func storeBlob(_ bytes: Data) throws -> Data { try connection.storeBlob(bytes) }

    /// `storeBlob` on a connection outside a context (the store's opening and migration).
    static func storeBlob(_ bytes: Data, on connection: Connection) throws -> Data { try connection.storeBlob(bytes) }

    /// The model's default values, stored so a clone's `exclude` can write their keys.
    func storeDefaultBlobs() throws {
        for bytes in schema.defaultBlobValues { _ = try storeBlob(bytes) }
    }

    /// Deletes the blobs among `candidates` that no record refers to any more (and that are not a
    /// model default): lock, then delete, as the extension's comment explains. Two statements for
    /// any number of candidates, the keys bound as one parameter.
    func sweepBlobs(_ candidates: Set<Data>) throws {
        guard !candidates.isEmpty else { return }
        let keys = candidates.subtracting(schema.defaultBlobHashes).sorted { $0.lexicographicallyPrecedes($1) }
        guard !keys.isEmpty else { return }
        let blobs = BlobTables.blobs
        var locked: [Data] = []
        try connection.forEachRow(
            "SELECT \"hash\" FROM \(blobs) WHERE \"hash\" \(Dialect.amongBlobKeys(1)) ORDER BY \"hash\"\(Dialect.rowLock(.update))",
            arguments: [.blobKeys(keys)]
        ) { locked.append($0.data(0)) }
        guard !locked.isEmpty else { return }
        let unreferenced = schema.binaryColumns.map { " AND NOT EXISTS (SELECT 1 FROM \(quoted($0.entity)) r WHERE r.\(quoted($0.column)) = b.\"hash\")" }
        try connection.perform(
            "DELETE FROM \(blobs) AS b WHERE b.\"hash\" \(Dialect.amongBlobKeys(1))" + unreferenced.joined(), arguments: [.blobKeys(locked)])
    }

    /// The blob `attribute` of object `id` refers to; nil when the object is missing or the value
    /// is null.
    func blobReference(entity: String, id: Int64, attribute: String) throws -> BlobReference? {
        var found: BlobReference?
        try connection.forEachRow(
            """
            SELECT b."hash", b."size" FROM \(quoted(entity)) r JOIN \(BlobTables.blobs) b ON b."hash" = r.\(quoted(attribute))
            WHERE r."_id" = \(Dialect.parameter(1))
            """, arguments: [.integer(id)]
        ) { found = BlobReference(hash: $0.data(0), size: $0.int64(1)) }
        return found
    }

    /// Bytes `range` of blob `hash`, handed to `body` a chunk's part at a time (a slice of each
    /// chunk row read in the database, so no more than one chunk is in memory). False when the
    /// blob is gone.
    func readBlob(hash: Data, range: Range<Int64>, _ body: (Data) throws -> Void) throws -> Bool {
        guard !range.isEmpty else {
            var found = false
            try connection.forEachRow(
                "SELECT 1 FROM \(BlobTables.blobs) WHERE \"hash\" = \(Dialect.parameter(1))", arguments: [.bytes(hash)]
            ) { _ in found = true }
            return found
        }
        let sql = """
            SELECT \(Dialect.bytesSlice("\"bytes\"", start: 1, length: 2)) FROM \(BlobTables.chunks)
            WHERE "hash" = \(Dialect.parameter(3)) AND "n" = \(Dialect.parameter(4))
            """
        let size = Int64(StoreSchema.blobChunkSize)
        for number in (range.lowerBound / size)...((range.upperBound - 1) / size) {
            let start = max(range.lowerBound - number * size, 0)
            let end = min(range.upperBound - number * size, size)
            var part: Data?
            try connection.forEachRow(sql, arguments: [.integer(start + 1), .integer(end - start), .bytes(hash), .integer(number)]) {
                part = $0.data(0)
            }
            guard let part else { return false }
            try body(part)
        }
        return true
    }

    /// Points binary `attribute` of object `id` at stored blob `hash`, the object's row held
    /// against other writers (not against clones linking it) while its version is checked.
    func setBlob(entity: String, id: Int64, attribute: String, hash: Data, expectedVersion: Int64?) throws -> Int64 {
        guard
            let version = try connection.int64(
                "SELECT \"_version\" FROM \(quoted(entity)) WHERE \"_id\" = \(Dialect.parameter(1))\(Dialect.rowLock(.noKeyUpdate))",
                arguments: [.integer(id)])
        else { throw StoreError.notFound(entity: entity, id: id) }
        if let expectedVersion, expectedVersion != version {
            throw StoreError.versionConflict(entity: entity, id: id, expected: expectedVersion, actual: version)
        }
        let dropped = try blobKeys(entity: entity, columns: [attribute], ids: [id])
        if dropped == [hash] { return version }
        try connection.perform(
            "UPDATE \(quoted(entity)) SET \(quoted(attribute)) = \(Dialect.parameter(1)), \"_version\" = \"_version\" + 1 WHERE \"_id\" = \(Dialect.parameter(2))",
            arguments: [.bytes(hash), .integer(id)])
        try sweepBlobs(dropped)
        return version + 1
    }
}
