import ClonerStore

/// The export's objects, a batch at a time into buffers every batch reuses: each batch's records
/// read, then the reference lines of the shared objects outside the walk it names, then its
/// object lines.
extension GraphExportWriter {
    typealias Batch = ArraySlice<GraphWalk.Object>

    /// The batch from `start`: up to `batchSize` objects, fewer when they carry binary values.
    mutating func nextBatch(from start: Int) -> Batch {
        let objects = walk.objects
        var end = start
        var binary = 0
        while end < objects.count && end - start < batchSize && binary < binaryLimit {
            if columns.hasBinary[objects[end].entity] { binary += 1 }
            end += 1
        }
        batchBinaryObjects = binary
        return objects[start..<end]
    }

    /// Reads the batch's records and which of them are clones of what, per entity, and adapts the bound on objects with binary values
    /// to the bytes it held (doubled under 4 MiB, halved over 16 MiB).
    mutating func read(_ batch: Batch) throws {
        let entityCount = model.entities.count
        for tag in 0..<entityCount { batchIDs[tag].removeAll(keepingCapacity: true) }
        positions.removeAll(keepingCapacity: true)
        for object in batch {
            positions.append(batchIDs[object.entity].count)
            batchIDs[object.entity].append(object.id)
        }
        var binaryBytes = 0
        for tag in 0..<entityCount where !batchIDs[tag].isEmpty {
            try context.readGraphRecords(entity: model.entities[tag].name, ids: batchIDs[tag], into: records[tag])
            binaryBytes += records[tag].binaryBytes
        }
        for tag in 0..<entityCount {
            clonedFrom[tag] = batchIDs[tag].isEmpty ? [:] : try context.clonedFrom(entity: model.entities[tag].name, ids: batchIDs[tag])
        }
        if batchBinaryObjects >= binaryLimit {
            if binaryBytes < 4 << 20 {
                binaryLimit = min(batchSize, binaryLimit * 2)
            } else if binaryBytes > 16 << 20 {
                binaryLimit = max(1, binaryLimit / 2)
            }
        }
    }

    /// The reference lines of the shared objects outside the walk the batch names, each once per
    /// export, read `batchSize` at a time.
    mutating func writeReferences(of batch: Batch) throws {
        for (offset, object) in batch.enumerated() {
            let position = positions[offset]
            let entityRecords = records[object.entity]
            guard entityRecords.isFound(position) else { continue }
            let isRoot = object.entity == rootTag && object.id == copy.rootID
            for relationship in columns.relationships[object.entity][isRoot ? 1 : 0] {
                let tag = relationship.destination
                for id in entityRecords.destinations(of: position, relationship: relationship.index) where !walk.contains(entity: tag, id: id) {
                    if referenced[tag].insert(id) { outside[tag].append(id) }
                }
            }
        }
        for tag in 0..<model.entities.count where !outside[tag].isEmpty {
            let ids = outside[tag]
            outside[tag].removeAll(keepingCapacity: true)
            var idStart = 0
            while idStart < ids.count {
                let chunk = Array(ids[idStart..<min(ids.count, idStart + batchSize)])
                idStart += batchSize
                try context.readGraphRecords(entity: model.entities[tag].name, ids: chunk, into: referenceRecords)
                for position in chunk.indices where referenceRecords.isFound(position) {
                    try writeReference(entity: tag, id: chunk[position], at: position, in: referenceRecords)
                }
            }
        }
    }

    /// The batch's object lines, in walk order.
    mutating func writeObjects(_ batch: Batch) throws {
        for (offset, object) in batch.enumerated() {
            // Deleted between the walk and the read cannot happen inside one read transaction.
            let position = positions[offset]
            let entityRecords = records[object.entity]
            guard entityRecords.isFound(position) else { continue }
            try writeObject(object, at: position, in: entityRecords)
        }
    }
}
