import ClonerModel
import Foundation

/// Blobs stored a batch at a time with `unnest` arrays, as PostgreSQL inserts rows (the blob
/// storage itself is written once, `SQLStoreContext+Blobs`), and a value as PostgreSQL stores it.
extension PostgreSQLStoreContext {
    /// `storeBlob` for the binary values of a batch of rows at once, their keys in the order of
    /// `values`: a few statements for the batch — insert the new ones, hold (KEY SHARE, in key
    /// order, as the sweep locks) those already there — where one value at a time cost two round
    /// trips per value, most of an import's time.
    func storeBlobs(_ values: [Data]) throws -> [Data] {
        if values.count < 2 { return try values.map(storeBlob) }
        let keys = values.map(BlobDigest.sha256)
        var pending: [Data: Data] = [:]
        for (key, bytes) in zip(keys, values) { pending[key] = bytes }
        let blobs = BlobTables.blobs
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
            "INSERT INTO \(BlobTables.chunks) (\"hash\", \"n\", \"bytes\") SELECT * FROM unnest($1, $2, $3)",
            [.array(element: .bytea, hashes), .array(element: .int8, numbers), .array(element: .bytea, parts)])
    }

    /// The parameter for a value of `attribute` as its column stores it: a binary value by its
    /// (stored) blob's key.
    func storedValue(_ value: AttributeValue, entity: String, attribute: String) throws -> PostgreSQLValue {
        if case .binary(let bytes) = value { return .bytea(try storeBlob(bytes)) }
        return try Self.parameter(value, entity: entity, attribute: attribute)
    }
}
