import ClonerModel
import Foundation

/// Binary values of records read for an answer. The record reads select a binary column as it is
/// stored, the blob's 32-byte key; its bytes are read here afterwards, in the same transaction,
/// only for the values the answer carries. A value of a hundred megabytes would otherwise be read
/// whole — and held again as base64 in the answer — for every record on a page that refers to it.
extension SQLStoreContext {
    /// Replaces the blob keys in `records`' binary values with their bytes, in record order, while
    /// their sizes add up to at most `inlineBytes`; the values past that stay in the store
    /// (`StoredRecords.storedBinaries`) for the answer to name. `Int.max` reads every value.
    /// Per binary attribute of the entity: one query for the sizes (none when every value is
    /// read) and one for the bytes.
    func readBinaryValues(in records: inout StoredRecords, inlineBytes: Int) throws {
        let entity = records.entity
        let binary = entity.attributes.indices.filter { entity.attributes[$0].type == .binary }
        guard !binary.isEmpty, records.count > 0 else { return }
        var remaining = inlineBytes
        var inline: [Int: [Int64]] = [:]
        var sizes: [Int: [Int64: Int64]] = [:]
        if inlineBytes != .max {
            for attribute in binary {
                let ids = (0..<records.count).filter { !records.value(record: $0, attribute: attribute).isNull }.map { records.ids[$0] }
                guard !ids.isEmpty else { continue }
                var found: [Int64: Int64] = [:]
                try connection.forEachRow(
                    "SELECT t.\"_id\", b.\"size\" FROM \(quoted(entity.name)) t JOIN \(quoted(StoreSchema.blobTable)) b "
                        + "ON b.\"hash\" = t.\(quoted(entity.attributes[attribute].name)) WHERE t.\"_id\" \(Dialect.among(1))",
                    arguments: [.ids(ids)]
                ) { found[$0.int64(0)] = $0.int64(1) }
                sizes[attribute] = found
            }
        }
        // Which values the answer carries: in record order, then attribute order, while they fit.
        for index in 0..<records.count {
            for attribute in binary {
                guard case .binary(let key) = records.value(record: index, attribute: attribute) else { continue }
                let id = records.ids[index]
                if inlineBytes != .max {
                    let size = sizes[attribute]?[id] ?? 0
                    guard size <= remaining else {
                        records.leaveStored(BlobReference(hash: key, size: size), record: index, attribute: attribute)
                        continue
                    }
                    remaining -= Int(size)
                }
                inline[attribute, default: []].append(id)
            }
        }
        for (attribute, ids) in inline {
            let bytes = try binaryValues(entity: entity.name, attribute: entity.attributes[attribute].name, ids: ids)
            for index in 0..<records.count {
                guard case .binary = records.value(record: index, attribute: attribute) else { continue }
                // An empty value's blob has no chunk.
                records.setAttribute(.binary(bytes[records.ids[index]] ?? Data()), record: index, attribute: attribute)
            }
        }
    }

    /// The bytes of binary `attribute` of objects `ids` of `entity`, by `_id`: their blobs' chunks
    /// in order, one query for all of them.
    func binaryValues(entity: String, attribute: String, ids: [Int64]) throws -> [Int64: Data] {
        var values: [Int64: Data] = [:]
        try connection.forEachRow(
            "SELECT t.\"_id\", c.\"bytes\" FROM \(quoted(entity)) t JOIN \(quoted(StoreSchema.blobChunkTable)) c "
                + "ON c.\"hash\" = t.\(quoted(attribute)) WHERE t.\"_id\" \(Dialect.among(1)) ORDER BY t.\"_id\", c.\"n\"",
            arguments: [.ids(ids)]
        ) { row in
            let id = row.int64(0)
            if values[id] == nil {
                values[id] = row.data(1)
            } else {
                values[id]!.append(row.data(1))
            }
        }
        return values
    }
}
