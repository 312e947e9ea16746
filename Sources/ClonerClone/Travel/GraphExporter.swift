import ClonerModel
import ClonerStore

/// Writes the graph a clone would copy as a `GraphFormat` document, inside the caller's read
/// transaction: the walk first (`_id`s only), then the objects a batch at a time into buffers
/// every batch reuses (`readGraphRecords`), so memory holds one batch, never the graph, and no
/// row costs a dictionary. Bytes go to `emit` in pieces of about `flushBytes`.
public struct GraphExporter {
    public let plan: ClonePlan
    /// Objects fetched per query. Objects of entities with binary attributes count against a
    /// second bound that starts at `binaryBatchSize` and adapts to the bytes a batch held (doubled
    /// while batches hold under 4 MiB of binary values, halved above 16 MiB), so small blobs are
    /// read in large batches and large ones a few at a time.
    public var batchSize = 1000
    public var binaryBatchSize = 4
    /// Bytes per piece handed to `emit`: each piece of a served export is one hand-over to the
    /// connection's thread and back, so fewer, larger pieces (64 KiB before) cost less switching.
    /// A piece ends at a line's end, or inside a binary value streamed from the store.
    public var flushBytes = 256 * 1024

    public init(plan: ClonePlan) {
        self.plan = plan
    }

    /// What an export wrote.
    public struct Summary: Sendable, Hashable {
        public var objects: Int
        public var references: Int
        public var bytes: Int
    }

    public func run(in context: any StoreContext, emit: ([UInt8]) throws -> Void) throws -> Summary {
        let copy = plan.copy
        let schema = context.schema
        let model = schema.model
        let walk: GraphWalk
        do {
            walk = try context.walkGraph(copy, batchSize: batchSize)
        } catch StoreError.notFound(let entity, let id) {
            throw CloneError.rootNotFound(entity: entity, id: id)
        } catch StoreError.tooLarge(let objects, let limit) {
            throw CloneError.tooLarge(objects: objects, limit: limit)
        }
        let rootTag = schema.entityTag(copy.rootEntity)

        // Lines are written straight into the piece handed to `emit`.
        var writer = GraphLineWriter(capacity: flushBytes + flushBytes / 4)
        var bytes = 0
        func flush() throws {
            bytes += writer.bytes.count
            try emit(writer.bytes)
            writer.removeAll()
        }
        func endLine() throws {
            writer.endLine()
            if writer.bytes.count >= flushBytes { try flush() }
        }
        /// An attribute's value; one left in the store (`GraphRecordBatch.Value.blob`) is read a
        /// chunk at a time and handed on as its base64 grows, in the middle of its line, so the
        /// export holds one chunk of it, never the value or its line.
        func attribute(_ value: GraphRecordBatch.Value, type: AttributeType, in records: GraphRecordBatch, entity: Int, index: Int) throws {
            guard case .blob(let blob) = value else {
                writer.value(value, type: type, in: records)
                return
            }
            writer.beginBinary()
            var read: Int64 = 0
            let found = try context.readBlob(hash: blob.hash, range: 0..<blob.size) { piece in
                read += Int64(piece.count)
                piece.withUnsafeBytes { writer.binaryPiece($0) }
                if writer.bytes.count >= flushBytes { try flush() }
            }
            // Inside one read transaction a referenced blob cannot go: missing or short chunks
            // mean a damaged store, never a value to write.
            guard found, read == blob.size else {
                let entity = model.entities[entity]
                throw StoreError.invalidValue(
                    entity: entity.name, property: entity.attributes[index].name,
                    reason: "blob \(blob.hash.lowercaseHex) gave \(read) of its \(blob.size) bytes (cloner check-store names such problems)")
            }
            writer.endBinary()
        }
        func line(_ value: JSONValue) throws {
            writer.encoded(Array(value.canonicalText.utf8))
            try endLine()
        }

        // What a line lists, per entity and for the root, worked out once rather than per object:
        // properties by index, names encoded, each line's opening (`{"kind":"object","entity":…,
        // "ref":`) written once.
        struct AttributeColumn {
            var index: Int
            var key: [UInt8]
            var type: AttributeType
        }
        struct RelationshipColumn {
            var index: Int
            var key: [UInt8]
            var destination: Int
            var isToMany: Bool
        }
        func opening(_ kind: String, _ entity: String) -> [UInt8] {
            var opening = GraphLineWriter(capacity: 64)
            opening.beginObject()
            opening.key("kind")
            opening.string(kind)
            opening.key("entity")
            opening.string(entity)
            opening.key("ref")
            return opening.bytes
        }
        let attributeLists = model.entities.map { entity in
            [false, true].map { isRoot in
                entity.attributes.enumerated().filter { _, attribute in
                    !copy.isExcludedEverywhere(entity.name, attribute.name) && !(isRoot && copy.excludedAtRoot.contains(attribute.name))
                }.map { AttributeColumn(index: $0.offset, key: GraphLineWriter.encodedKey($0.element.name), type: $0.element.type) }
            }
        }
        let relationshipLists = model.entities.map { entity in
            [false, true].map { isRoot in
                entity.relationships.enumerated().filter { _, relationship in
                    !copy.isExcludedEverywhere(entity.name, relationship.name) && !(isRoot && copy.excludedAtRoot.contains(relationship.name))
                }.map {
                    RelationshipColumn(
                        index: $0.offset, key: GraphLineWriter.encodedKey($0.element.name), destination: schema.entityTag($0.element.destination),
                        isToMany: $0.element.isToMany)
                }
            }
        }
        let keyColumns = model.entities.map { entity in
            GraphFormat.naturalKey(of: entity, in: model).map { name in
                // A key naming no attribute is written null, as a fetch has no value for it.
                AttributeColumn(
                    index: entity.attributes.firstIndex { $0.name == name } ?? -1, key: GraphLineWriter.encodedKey(name),
                    type: entity.attribute(named: name)?.type ?? .string)
            }
        }
        let objectOpenings = model.entities.map { opening("object", $0.name) }
        let referenceOpenings = model.entities.map { opening("reference", $0.name) }
        let parentOpenings = model.entities.map { entity in
            var parent = GraphLineWriter(capacity: 32)
            parent.beginObject()
            parent.key("entity")
            parent.string(entity.name)
            parent.key("ref")
            return parent.bytes
        }
        let parentKey = GraphLineWriter.encodedKey("parent")
        let keyKey = GraphLineWriter.encodedKey("key")
        let attributesKey = GraphLineWriter.encodedKey("attributes")
        let relationshipsKey = GraphLineWriter.encodedKey("relationships")
        let hasBinary = model.entities.map { $0.attributes.contains(where: { $0.type == .binary }) }
        func relationshipNames(_ tag: Int, isRoot: Bool) -> [RelationshipDescription] {
            relationshipLists[tag][isRoot ? 1 : 0].map { model.entities[tag].relationships[$0.index] }
        }

        // Header: the entities walked, and those their relationships may point at (references).
        var used: [Int: Bool] = [:]  // tag → has object lines
        for tag in walk.entities { used[tag] = true }
        for tag in walk.entities {
            for relationship in relationshipNames(tag, isRoot: false) where used[schema.entityTag(relationship.destination)] == nil {
                used[schema.entityTag(relationship.destination)] = false
            }
        }
        for relationship in relationshipNames(rootTag, isRoot: true) where used[schema.entityTag(relationship.destination)] == nil {
            used[schema.entityTag(relationship.destination)] = false
        }
        var entities: [String: JSONValue] = [:]
        for (tag, hasObjects) in used {
            let entity = model.entities[tag]
            var attributes: [String: JSONValue] = [:]
            for attribute in entity.attributes where !copy.isExcludedEverywhere(entity.name, attribute.name) {
                attributes[attribute.name] = .string(attribute.type.rawValue)
            }
            var relationships: [String: JSONValue] = [:]
            if hasObjects {
                for relationship in entity.relationships where !copy.isExcludedEverywhere(entity.name, relationship.name) {
                    relationships[relationship.name] = .object([
                        "destination": .string(relationship.destination), "toMany": .bool(relationship.isToMany),
                        "ordered": .bool(relationship.isOrdered),
                    ])
                }
            }
            let key = GraphFormat.naturalKey(of: entity, in: model)
            entities[entity.name] = .object([
                "attributes": .object(attributes), "relationships": .object(relationships),
                "key": key.isEmpty ? .null : .array(key.map(JSONValue.string)),
            ])
        }
        try line(
            .object([
                "kind": "header", "format": .string(GraphFormat.name), "version": .integer(GraphFormat.version),
                "fingerprint": .string(model.fingerprint),
                "root": .object(["entity": .string(copy.rootEntity), "ref": .integer(copy.rootID)]),
                "entities": .object(entities),
            ]))

        let entityCount = model.entities.count
        // Shared objects outside the walk already written as references, by entity index.
        var referenced = [GraphIDSet](repeating: GraphIDSet(), count: entityCount)
        var outside = [[Int64]](repeating: [], count: entityCount)
        var references = 0
        var start = 0
        let objects = walk.objects
        var binaryLimit = binaryBatchSize
        // Per entity, the batch's `_id`s and their records; per object of the batch, its
        // position among its entity's.
        var batchIDs = [[Int64]](repeating: [], count: entityCount)
        let records = (0..<entityCount).map { _ in GraphRecordBatch() }
        var positions: [Int] = []
        let referenceRecords = GraphRecordBatch()
        while start < objects.count {
            // A batch: up to `batchSize` objects, fewer when they carry binary values.
            var end = start
            var binary = 0
            while end < objects.count && end - start < batchSize && binary < binaryLimit {
                if hasBinary[objects[end].entity] { binary += 1 }
                end += 1
            }
            let batch = objects[start..<end]
            start = end
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
            if binary >= binaryLimit {
                if binaryBytes < 4 << 20 {
                    binaryLimit = min(batchSize, binaryLimit * 2)
                } else if binaryBytes > 16 << 20 {
                    binaryLimit = max(1, binaryLimit / 2)
                }
            }
            // Shared objects outside the walk named by this batch: reference lines first.
            for (offset, object) in batch.enumerated() {
                let position = positions[offset]
                let entityRecords = records[object.entity]
                guard entityRecords.isFound(position) else { continue }
                let isRoot = object.entity == rootTag && object.id == copy.rootID
                for relationship in relationshipLists[object.entity][isRoot ? 1 : 0] {
                    let tag = relationship.destination
                    for id in entityRecords.destinations(of: position, relationship: relationship.index) where !walk.contains(entity: tag, id: id) {
                        if referenced[tag].insert(id) { outside[tag].append(id) }
                    }
                }
            }
            for tag in 0..<entityCount where !outside[tag].isEmpty {
                let ids = outside[tag]
                outside[tag].removeAll(keepingCapacity: true)
                var idStart = 0
                while idStart < ids.count {
                    let chunk = Array(ids[idStart..<min(ids.count, idStart + batchSize)])
                    idStart += batchSize
                    try context.readGraphRecords(entity: model.entities[tag].name, ids: chunk, into: referenceRecords)
                    for position in chunk.indices where referenceRecords.isFound(position) {
                        writer.encoded(referenceOpenings[tag])
                        writer.integer(chunk[position])
                        writer.encoded(keyKey)
                        if keyColumns[tag].isEmpty {
                            writer.null()
                        } else {
                            writer.beginObject()
                            for column in keyColumns[tag] {
                                writer.encoded(column.key)
                                if column.index < 0 {
                                    writer.null()
                                } else {
                                    try attribute(
                                        referenceRecords.value(of: position, attribute: column.index), type: column.type, in: referenceRecords,
                                        entity: tag, index: column.index)
                                }
                            }
                            writer.endObject()
                        }
                        writer.encoded(attributesKey)
                        writer.beginObject()
                        for column in attributeLists[tag][0] {
                            writer.encoded(column.key)
                            try attribute(
                                referenceRecords.value(of: position, attribute: column.index), type: column.type, in: referenceRecords,
                                entity: tag, index: column.index)
                        }
                        writer.endObject()
                        writer.endObject()
                        try endLine()
                        references += 1
                    }
                }
            }
            for (offset, object) in batch.enumerated() {
                // Deleted between the walk and the read cannot happen inside one read transaction.
                let position = positions[offset]
                let tag = object.entity
                let entityRecords = records[tag]
                guard entityRecords.isFound(position) else { continue }
                let isRoot = tag == rootTag && object.id == copy.rootID
                writer.encoded(objectOpenings[tag])
                writer.integer(object.id)
                writer.encoded(parentKey)
                if let parentEntity = object.parentEntity, let parentID = object.parentID {
                    writer.encoded(parentOpenings[parentEntity])
                    writer.integer(parentID)
                    writer.endObject()
                } else {
                    writer.null()
                }
                writer.encoded(attributesKey)
                writer.beginObject()
                for column in attributeLists[tag][isRoot ? 1 : 0] {
                    writer.encoded(column.key)
                    try attribute(
                        entityRecords.value(of: position, attribute: column.index), type: column.type, in: entityRecords, entity: tag,
                        index: column.index)
                }
                writer.endObject()
                writer.encoded(relationshipsKey)
                writer.beginObject()
                for relationship in relationshipLists[tag][isRoot ? 1 : 0] {
                    writer.encoded(relationship.key)
                    let destinations = entityRecords.destinations(of: position, relationship: relationship.index)
                    if relationship.isToMany {
                        writer.beginArray()
                        for id in destinations { writer.integer(id) }
                        writer.endArray()
                    } else if let id = destinations.first {
                        writer.integer(id)
                    } else {
                        writer.null()
                    }
                }
                writer.endObject()
                writer.endObject()
                try endLine()
            }
        }
        try line(.object(["kind": "end", "objects": .integer(Int64(objects.count)), "references": .integer(Int64(references))]))
        if !writer.bytes.isEmpty {
            bytes += writer.bytes.count
            try emit(writer.bytes)
        }
        return Summary(objects: objects.count, references: references, bytes: bytes)
    }
}
