import ClonerModel

/// The export's reads: columns read by index straight into the batch's buffers (a row type may
/// copy text without making a `String`, `SQLRow.graphValue`), with the statements built once per
/// schema (`SQLReadStatements`).
extension SQLStoreContext {
    /// One query for the rows, one per binary attribute for its blobs' chunks, one per
    /// relationship stored elsewhere: the same values `fetchObjects` reads, but for a binary
    /// value over `GraphRecordBatch.streamedBinaryBytes`, which the export streams (`.blob`).
    func readGraphRecords(entity name: String, ids: [Int64], into batch: GraphRecordBatch) throws {
        let reads = readStatements.reads(name)
        let entity = reads.entity
        batch.reset(entity: entity, ids: ids)
        guard !ids.isEmpty else { return }
        let attributes = entity.attributes
        // Reference columns come after the attributes, in the order of `reads.records.ownToOnes`.
        let ownToOnes = reads.records.ownToOnes.enumerated().map { (relationship: $0.element.relationship, column: 1 + attributes.count + $0.offset) }
        // Then each binary value's size, in attribute order (-1: not binary); per attribute, the
        // `_id`s whose values the chunk query reads (the others are empty or streamed).
        var sizeColumns = [Int](repeating: -1, count: attributes.count)
        for (offset, index) in attributes.indices.filter({ attributes[$0].type == .binary }).enumerated() {
            sizeColumns[index] = 1 + attributes.count + ownToOnes.count + offset
        }
        let (types, sizeColumn) = (attributes.map(\.type), sizeColumns)
        var chunked = [[Int64]](repeating: [], count: attributes.count)
        try forEachRow(reads.graphRows, arguments: [.ids(ids)]) { row in
            guard let position = batch.position(of: row.int64(0)) else { return }
            batch.markFound(position)
            for index in 0..<types.count {
                let column = 1 + index
                guard sizeColumn[index] >= 0 else {
                    batch.set(row.graphValue(column, type: types[index], into: batch), of: position, attribute: index)
                    continue
                }
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
            }
            for own in ownToOnes {
                batch.setRelationship(row.optionalInt64(own.column), of: position, relationship: own.relationship)
            }
        }
        for chunks in reads.graphChunks where !chunked[chunks.attribute].isEmpty {
            try forEachRow(chunks.query, arguments: [.ids(chunked[chunks.attribute])]) { row in
                guard let position = batch.position(of: row.int64(0)) else { return }
                row.withBytes(1) { batch.appendChunk($0.baseAddress, count: $0.count, of: position, attribute: chunks.attribute) }
            }
        }
        for related in reads.records.related {
            try forEachRow(related.forMany, arguments: [.ids(ids)]) { row in
                batch.appendRelationship(row.int64(1), source: row.int64(0), relationship: related.relationship)
                if related.readsPlaces { batch.appendPlace(row.optionalInt64(2) ?? .min, source: row.int64(0), relationship: related.relationship) }
            }
            batch.endRelationshipList()
        }
    }

    func readDestinations(of relationship: RelationshipDescription, for sources: [Int64], into lists: inout GraphDestinations) throws {
        lists.reset(sources: sources, width: 1)
        guard !sources.isEmpty else { return }
        let reads = readStatements.reads(relationship.source)
        guard let index = reads.entity.relationships.firstIndex(where: { $0.name == relationship.name }) else {
            preconditionFailure("unknown relationship \(relationship.qualifiedName)")
        }
        try forEachRow(reads.destinations[index], arguments: [.ids(sources)]) { row in
            lists.append(row.int64(1), source: row.int64(0), list: 0)
        }
        lists.endList()
    }
}
