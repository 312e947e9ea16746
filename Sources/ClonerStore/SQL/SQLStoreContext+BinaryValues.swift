import ClonerModel
import Foundation

/// Binary values of records read for an answer. A record read reads a small value with its row
/// (`SQLRecordColumns`) and only the size of a larger one; this reads the larger ones the answer
/// carries, in the same transaction. A value of a hundred megabytes would otherwise be read whole
/// — and held again as base64 in the answer — for every record on a page that refers to it.
extension SQLStoreContext {
    /// Keeps `records`' binary values, in record order, while their sizes add up to at most
    /// `inlineBytes`, reading those the rows did not; the values past that stay in the store
    /// (`StoredRecords.storedBinaries`) for the answer to name. `Int.max` keeps every value. One
    /// query per binary attribute with values to read; none when the rows read them all.
    func readBinaryValues(in records: inout StoredRecords, inlineBytes: Int) throws {
        let entity = records.entity
        let binary = entity.attributes.indices.filter { entity.attributes[$0].type == .binary }
        guard !binary.isEmpty else { return }
        var remaining = Int64(inlineBytes)
        var unread: [Int: [Int64]] = [:]
        for index in 0..<records.count {
            for attribute in binary {
                let size: Int64
                let pending = records.unreadBinary(record: index, attribute: attribute)
                if let pending {
                    size = pending.size
                } else if case .binary(let bytes) = records.value(record: index, attribute: attribute) {
                    size = Int64(bytes.count)
                } else {
                    continue
                }
                guard size <= remaining else {
                    records.leaveStored(size: size, record: index, attribute: attribute)
                    continue
                }
                remaining -= size
                if let pending, pending.size > 0 { unread[attribute, default: []].append(records.ids[index]) }
            }
        }
        for index in 0..<records.count {
            // An empty value may have no chunk row at all (a store moved from another): nothing to read.
            for attribute in binary where records.unreadBinary(record: index, attribute: attribute)?.size == 0 {
                records.setUnreadBinary(Data(), record: index, attribute: attribute)
            }
        }
        for (attribute, ids) in unread {
            let bytes = try binaryValues(entity: entity.name, attribute: entity.attributes[attribute].name, ids: ids)
            for index in 0..<records.count {
                guard let pending = records.unreadBinary(record: index, attribute: attribute) else { continue }
                // Inside one transaction a referenced blob cannot go (its foreign key): bytes
                // that do not add up to its size mean a damaged store, never a value to answer.
                guard let value = bytes[records.ids[index]], value.count == pending.size else {
                    let blob = "blob \(pending.hash.lowercaseHex) of \(entity.name) \(records.ids[index])"
                    throw StoreError.invalidValue(
                        entity: entity.name, property: entity.attributes[attribute].name,
                        reason: "the chunks of \(blob) do not add up to its \(pending.size) bytes (cloner check-store names such problems)")
                }
                records.setUnreadBinary(value, record: index, attribute: attribute)
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
