import ClonerModel
import ClonerStore

/// Writes the graph a clone would copy as a `GraphFormat` document, inside the caller's read
/// transaction: the walk first (`_id`s only), then the objects a batch at a time through the
/// store's normal fetch, so memory holds one batch, never the graph. Bytes go to `emit` in pieces
/// of about `flushBytes`.
public struct GraphExporter {
    public let plan: ClonePlan
    /// Objects fetched per query. Objects of entities with binary attributes count against a
    /// second bound that starts at `binaryBatchSize` and adapts to the bytes a batch held (doubled
    /// while batches hold under 4 MiB of binary values, halved above 16 MiB), so small blobs are
    /// read in large batches and large ones a few at a time.
    public var batchSize = 1000
    public var binaryBatchSize = 4
    public var flushBytes = 64 * 1024

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

        var buffer: [UInt8] = []
        var bytes = 0
        var writer = GraphLineWriter(capacity: 4096)
        func line(_ value: JSONValue) throws {
            try emitLine(Array(value.canonicalText.utf8))
        }
        func emitLine(_ text: [UInt8]) throws {
            buffer.append(contentsOf: text)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= flushBytes {
                bytes += buffer.count
                try emit(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }

        // The properties a line lists, per entity and for the root: worked out once, not per
        // object (filtering them per object showed in the export's profile).
        let attributeLists = model.entities.map { entity in
            [false, true].map { isRoot in
                entity.attributes.filter { !copy.isExcludedEverywhere(entity.name, $0.name) && !(isRoot && copy.excludedAtRoot.contains($0.name)) }
            }
        }
        let relationshipLists = model.entities.map { entity in
            [false, true].map { isRoot in
                entity.relationships.filter { !copy.isExcludedEverywhere(entity.name, $0.name) && !(isRoot && copy.excludedAtRoot.contains($0.name)) }
            }
        }
        var destinationTags: [String: [String: Int]] = [:]
        for entity in model.entities {
            for relationship in entity.relationships {
                destinationTags[entity.name, default: [:]][relationship.name] = schema.entityTag(relationship.destination)
            }
        }
        let hasBinary = model.entities.map { $0.attributes.contains(where: { $0.type == .binary }) }
        func attributeNames(_ tag: Int, isRoot: Bool) -> [AttributeDescription] { attributeLists[tag][isRoot ? 1 : 0] }
        func relationshipNames(_ tag: Int, isRoot: Bool) -> [RelationshipDescription] { relationshipLists[tag][isRoot ? 1 : 0] }

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

        var referenced: [Int: Set<Int64>] = [:]
        var references = 0
        var start = 0
        let objects = walk.objects
        var binaryLimit = binaryBatchSize
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
            var records: [Int: [Int64: StoredObject]] = [:]
            var binaryBytes = 0
            for (tag, members) in Dictionary(grouping: batch, by: \.entity) {
                let fetched = try context.fetchObjects(entity: model.entities[tag].name, ids: members.map(\.id))
                records[tag] = Dictionary(fetched.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                for object in fetched {
                    for case .binary(let data) in object.attributes.values { binaryBytes += data.count }
                }
            }
            if binary >= binaryLimit {
                if binaryBytes < 4 << 20 {
                    binaryLimit = min(batchSize, binaryLimit * 2)
                } else if binaryBytes > 16 << 20 {
                    binaryLimit = max(1, binaryLimit / 2)
                }
            }
            // Shared objects outside the walk named by this batch: reference lines first.
            var outside: [Int: [Int64]] = [:]
            for object in batch {
                guard let stored = records[object.entity]?[object.id] else { continue }
                for relationship in relationshipNames(object.entity, isRoot: object.entity == rootTag && object.id == copy.rootID) {
                    let tag = destinationTags[relationship.source]![relationship.name]!
                    let ids: [Int64]
                    switch stored.relationships[relationship.name] {
                    case .toOne(let id?)?: ids = [id]
                    case .toMany(let list)?: ids = list
                    default: ids = []
                    }
                    for id in ids where !walk.contains(entity: tag, id: id) {
                        if referenced[tag, default: []].insert(id).inserted { outside[tag, default: []].append(id) }
                    }
                }
            }
            for (tag, ids) in outside.sorted(by: { $0.key < $1.key }) {
                let entity = model.entities[tag]
                let key = GraphFormat.naturalKey(of: entity, in: model)
                var idStart = 0
                while idStart < ids.count {
                    let chunk = Array(ids[idStart..<min(ids.count, idStart + batchSize)])
                    idStart += batchSize
                    for stored in try context.fetchObjects(entity: entity.name, ids: chunk) {
                        var writer = GraphLineWriter(capacity: 256)
                        writer.beginObject()
                        writer.key("kind"); writer.string("reference")
                        writer.key("entity"); writer.string(entity.name)
                        writer.key("ref"); writer.integer(stored.id)
                        writer.key("key")
                        if key.isEmpty {
                            writer.null()
                        } else {
                            writer.beginObject()
                            for name in key { writer.key(name); writer.value(stored.attributes[name] ?? .null) }
                            writer.endObject()
                        }
                        writer.key("attributes")
                        writer.beginObject()
                        for attribute in attributeNames(tag, isRoot: false) {
                            writer.key(attribute.name); writer.value(stored.attributes[attribute.name] ?? .null)
                        }
                        writer.endObject()
                        writer.endObject()
                        try emitLine(writer.bytes)
                        references += 1
                    }
                }
            }
            for object in batch {
                // Deleted between the walk and the fetch cannot happen inside one read transaction.
                guard let stored = records[object.entity]?[object.id] else { continue }
                let entity = model.entities[object.entity]
                let isRoot = object.entity == rootTag && object.id == copy.rootID
                writer.removeAll()
                writer.beginObject()
                writer.key("kind"); writer.string("object")
                writer.key("entity"); writer.string(entity.name)
                writer.key("ref"); writer.integer(object.id)
                writer.key("parent")
                if let parentEntity = object.parentEntity, let parentID = object.parentID {
                    writer.beginObject()
                    writer.key("entity"); writer.string(model.entities[parentEntity].name)
                    writer.key("ref"); writer.integer(parentID)
                    writer.endObject()
                } else {
                    writer.null()
                }
                writer.key("attributes")
                writer.beginObject()
                for attribute in attributeNames(object.entity, isRoot: isRoot) {
                    writer.key(attribute.name); writer.value(stored.attributes[attribute.name] ?? .null)
                }
                writer.endObject()
                writer.key("relationships")
                writer.beginObject()
                for relationship in relationshipNames(object.entity, isRoot: isRoot) {
                    writer.key(relationship.name)
                    switch stored.relationships[relationship.name] {
                    case .toOne(let id?)?: writer.integer(id)
                    case .toMany(let list)?:
                        writer.beginArray()
                        for id in list { writer.integer(id) }
                        writer.endArray()
                    default:
                        if relationship.isToMany {
                            writer.beginArray()
                            writer.endArray()
                        } else {
                            writer.null()
                        }
                    }
                }
                writer.endObject()
                writer.endObject()
                try emitLine(writer.bytes)
            }
        }
        try line(.object(["kind": "end", "objects": .integer(Int64(objects.count)), "references": .integer(Int64(references))]))
        if !buffer.isEmpty {
            bytes += buffer.count
            try emit(buffer)
        }
        return Summary(objects: objects.count, references: references, bytes: bytes)
    }
}
