import CSQLite
import ClonerModel
import Foundation

/// The export's reads on SQLite: columns read by index straight into the batch's buffers, with
/// statements prepared once per connection (`SQLiteReadSQL`).
extension SQLiteStoreContext {
    /// One query for the rows, one per binary attribute for its blobs' chunks, one per
    /// relationship stored elsewhere: the same values `fetchObjects` reads, but for a binary
    /// value over `GraphRecordBatch.streamedBinaryBytes`, which the export streams (`.blob`).
    public func readGraphRecords(entity name: String, ids: [Int64], into batch: GraphRecordBatch) throws {
        let reads = readSQL.reads(name)
        let entity = reads.entity
        batch.reset(entity: entity, ids: ids)
        guard !ids.isEmpty else { return }
        let idArray = SQLiteStoreContext.idArray(ids)
        let attributes = entity.attributes
        // Reference columns come after the attributes, in the order of `reads.records.ownToOnes`.
        let ownToOnes = reads.records.ownToOnes.enumerated().map { (relationship: $0.element.relationship, column: Int32(1 + attributes.count + $0.offset)) }
        // Then each binary value's size, in attribute order; per attribute, the `_id`s whose
        // values the chunk query reads (the others are empty or streamed).
        var sizeColumn = [Int32](repeating: -1, count: attributes.count)
        for (offset, index) in attributes.indices.filter({ attributes[$0].type == .binary }).enumerated() {
            sizeColumn[index] = Int32(1 + attributes.count + ownToOnes.count + offset)
        }
        var chunked = [[Int64]](repeating: [], count: attributes.count)
        let rows = try connection.preparedStatement(slot: reads.graphRows.slot, sql: reads.graphRows.sql)
        try rows.forEachRow([idArray]) { row in
            guard let position = batch.position(of: row.int64(0)) else { return }
            batch.markFound(position)
            for (index, attribute) in attributes.enumerated() {
                let column = Int32(1 + index)
                if attribute.type == .binary {
                    // The key only: the bytes come with the chunks below, or a large value is
                    // streamed by the export.
                    guard !row.isNull(column) else { continue }
                    let size = row.int64(sizeColumn[index])
                    if size > GraphRecordBatch.streamedBinaryBytes {
                        batch.set(.blob(BlobReference(hash: row.data(column), size: size)), of: position, attribute: index)
                    } else if size == 0 {
                        // Empty, perhaps without a chunk row (a store moved from another).
                        batch.set(.bytes(batch.appendBytes(nil, count: 0)), of: position, attribute: index)
                    } else {
                        chunked[index].append(row.int64(0))
                    }
                    continue
                }
                let value = row.graphValue(column, type: attribute.type, into: batch)
                batch.set(value, of: position, attribute: index)
            }
            for own in ownToOnes {
                batch.setRelationship(row.optionalInt64(own.column), of: position, relationship: own.relationship)
            }
        }
        for chunks in reads.graphChunks where !chunked[chunks.attribute].isEmpty {
            let statement = try connection.preparedStatement(slot: chunks.query.slot, sql: chunks.query.sql)
            let wanted = chunked[chunks.attribute].count == ids.count ? idArray : SQLiteStoreContext.idArray(chunked[chunks.attribute])
            try statement.forEachRow([wanted]) { row in
                guard let position = batch.position(of: row.int64(0)) else { return }
                let handle = row.statement.handle
                batch.appendChunk(
                    sqlite3_column_blob(handle, 1), count: Int(sqlite3_column_bytes(handle, 1)), of: position, attribute: chunks.attribute)
            }
        }
        for related in reads.records.related {
            let statement = try connection.preparedStatement(slot: related.forMany.slot, sql: related.forMany.sql)
            try statement.forEachRow([idArray]) { row in
                batch.appendRelationship(row.int64(1), source: row.int64(0), relationship: related.relationship)
                if related.readsPlaces { batch.appendPlace(row.optionalInt64(2) ?? .min, source: row.int64(0), relationship: related.relationship) }
            }
            batch.endRelationshipList()
        }
    }

    public func readDestinations(of relationship: RelationshipDescription, for sources: [Int64], into lists: inout GraphDestinations) throws {
        lists.reset(sources: sources, width: 1)
        guard !sources.isEmpty else { return }
        let reads = readSQL.reads(relationship.source)
        guard let index = reads.entity.relationships.firstIndex(where: { $0.name == relationship.name }) else {
            preconditionFailure("unknown relationship \(relationship.qualifiedName)")
        }
        let query = reads.destinations[index]
        let statement = try connection.preparedStatement(slot: query.slot, sql: query.sql)
        try statement.forEachRow([SQLiteStoreContext.idArray(sources)]) { row in
            lists.append(row.int64(1), source: row.int64(0), list: 0)
        }
        lists.endList()
    }
}

extension SQLiteRow {
    /// A column of a non-binary attribute as the export holds it: the common pairs of storage
    /// class and type read without a `String` (text copied into `batch`'s bytes), any other pair
    /// as `attributeValue` converts it.
    fileprivate func graphValue(_ index: Int32, type: AttributeType, into batch: GraphRecordBatch) -> GraphRecordBatch.Value {
        let handle = statement.handle
        switch (sqlite3_column_type(handle, index), type) {
        case (SQLITE_NULL, _): return .null
        case (SQLITE_INTEGER, .integer), (SQLITE_INTEGER, .date), (SQLITE_INTEGER, .boolean): return .integer(int64(index))
        case (SQLITE_FLOAT, .double): return .double(double(index))
        case (SQLITE_TEXT, .string), (SQLITE_TEXT, .json):
            let text = UnsafeRawPointer(sqlite3_column_text(handle, index))
            let count = Int(sqlite3_column_bytes(handle, index))
            // ASCII is valid UTF-8 as it is; other text goes through `String`, which mends invalid
            // UTF-8 as a fetch's value would.
            if let text, !UnsafeRawBufferPointer(start: text, count: count).contains(where: { $0 >= 0x80 }) {
                return .bytes(batch.appendBytes(text, count: count))
            }
            var decoded = string(index)
            return .bytes(decoded.withUTF8 { batch.appendBytes(UnsafeRawPointer($0.baseAddress), count: $0.count) })
        case (SQLITE_TEXT, .uuid):
            if let text = sqlite3_column_text(handle, index),
                let uuid = UUID(hexUTF8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
            {
                return .uuid(uuid)
            }
            return .other(attributeValue(index, type: type))
        default:
            let value = attributeValue(index, type: type)
            return value == .null ? .null : .other(value)
        }
    }
}
