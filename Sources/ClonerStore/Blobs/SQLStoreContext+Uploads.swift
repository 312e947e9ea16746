import Foundation

/// Streamed uploads (docs/architecture.md#shared-blobs), written once: chunks written under a
/// pending blob row (size -1) with a random key, which `finishUpload` renames to the real key.
extension SQLStoreContext {
    func beginUpload(key: Data) throws {
        try connection.perform("INSERT INTO \(BlobTables.blobs) (\"hash\", \"size\") VALUES (\(Dialect.parameter(1)), -1)", arguments: [.bytes(key)])
    }

    func appendUpload(key: Data, number: Int64, bytes: Data) throws {
        try connection.perform(
            "INSERT INTO \(BlobTables.chunks) (\"hash\", \"n\", \"bytes\") VALUES (\((1...3).map(Dialect.parameter).joined(separator: ", ")))",
            arguments: [.bytes(key), .integer(number), .bytes(bytes)])
    }

    /// The real key reaches the chunks through their ON UPDATE CASCADE (PostgreSQL writes new row
    /// versions that keep pointing at the same TOAST data; SQLite rewrites each chunk row, the
    /// price of never holding the single writer for an upload). An equal blob stored meanwhile
    /// wins: the pending one goes, and the stored one is held (KEY SHARE) as `storeBlob` holds
    /// it, so a sweep cannot take it before the record points at it. Another upload of the same
    /// bytes that finishes first, beside this one, makes the rename meet its key: then its blob
    /// is used.
    func finishUpload(key: Data, hash: Data, size: Int64) throws {
        let blobs = BlobTables.blobs
        while true {
            var stored = false
            try connection.forEachRow(
                "SELECT 1 FROM \(blobs) WHERE \"hash\" = \(Dialect.parameter(1))\(Dialect.rowLock(.keyShare))", arguments: [.bytes(hash)]
            ) { _ in stored = true }
            if stored {
                try connection.perform("DELETE FROM \(blobs) WHERE \"hash\" = \(Dialect.parameter(1))", arguments: [.bytes(key)])
                return
            }
            let renamed = try connection.skippingUniqueViolation {
                try connection.perform(
                    "UPDATE \(blobs) SET \"hash\" = \(Dialect.parameter(1)), \"size\" = \(Dialect.parameter(2)) WHERE \"hash\" = \(Dialect.parameter(3))",
                    arguments: [.bytes(hash), .integer(size), .bytes(key)])
            }
            if renamed { return }
        }
    }

    func discardUpload(key: Data) throws {
        try connection.perform("DELETE FROM \(BlobTables.blobs) WHERE \"hash\" = \(Dialect.parameter(1)) AND \"size\" = -1", arguments: [.bytes(key)])
    }

    func pendingUploads() throws -> [Data: Int64] {
        var pending: [Data: Int64] = [:]
        try connection.forEachRow(
            """
            SELECT b."hash", (SELECT count(*) FROM \(BlobTables.chunks) c WHERE c."hash" = b."hash")
            FROM \(BlobTables.blobs) b WHERE b."size" = -1
            """, arguments: []
        ) { pending[$0.data(0)] = $0.int64(1) }
        return pending
    }
}
