import ClonerModel
import ClonerStore

/// One run of a `GraphExporter`: the line writer whose bytes are the piece handed to `emit`, the
/// per-entity columns (`GraphExportColumns`, worked out once per export), the buffers every batch
/// reuses (`GraphExportWriter+Batches.swift`), and a method per kind of line. Lines are written
/// straight into the piece, so no object or row costs a dictionary or a buffer of its own.
struct GraphExportWriter {
    let context: any StoreContext
    let schema: StoreSchema
    let model: DataModel
    let copy: GraphCopyPlan
    let walk: GraphWalk
    let rootTag: Int
    let columns: GraphExportColumns
    let batchSize: Int
    let flushBytes: Int
    private let emit: ([UInt8]) throws -> Void
    private var writer: GraphLineWriter
    /// Bytes handed to `emit` so far.
    private var bytes = 0
    /// Reference lines written so far.
    private var references = 0

    // The batches' buffers (GraphExportWriter+Batches.swift).
    /// The current bound on the objects with binary values in a batch, and how many the current
    /// batch holds.
    var binaryLimit: Int
    var batchBinaryObjects = 0
    /// Per entity, the batch's `_id`s and their records; per object of the batch, its position
    /// among its entity's.
    var batchIDs: [[Int64]]
    let records: [GraphRecordBatch]
    var positions: [Int] = []
    let referenceRecords = GraphRecordBatch()
    /// Shared objects outside the walk already written as references, by entity index, and those
    /// the current batch names that are still to be written.
    var referenced: [GraphIDSet]
    var outside: [[Int64]]
    /// Per entity, the source of each of the batch's objects that is a clone (docs/architecture.md#lineage).
    var clonedFrom: [[Int64: Int64]]

    init(exporter: GraphExporter, context: any StoreContext, walk: GraphWalk, emit: @escaping ([UInt8]) throws -> Void) {
        self.context = context
        schema = context.schema
        model = schema.model
        copy = exporter.plan.copy
        self.walk = walk
        rootTag = schema.entityTag(copy.rootEntity)
        columns = GraphExportColumns(copy: copy, schema: schema)
        batchSize = exporter.batchSize
        flushBytes = exporter.flushBytes
        self.emit = emit
        writer = GraphLineWriter(capacity: flushBytes + flushBytes / 4)
        binaryLimit = exporter.binaryBatchSize
        let entityCount = model.entities.count
        batchIDs = [[Int64]](repeating: [], count: entityCount)
        records = (0..<entityCount).map { _ in GraphRecordBatch() }
        referenced = [GraphIDSet](repeating: GraphIDSet(), count: entityCount)
        outside = [[Int64]](repeating: [], count: entityCount)
        clonedFrom = [[Int64: Int64]](repeating: [:], count: entityCount)
    }

    private mutating func flush() throws {
        bytes += writer.bytes.count
        try emit(writer.bytes)
        writer.removeAll()
    }

    private mutating func endLine() throws {
        writer.endLine()
        if writer.bytes.count >= flushBytes { try flush() }
    }

    private mutating func line(_ value: JSONValue) throws {
        writer.encoded(Array(value.canonicalText.utf8))
        try endLine()
    }

    /// An attribute's value; one left in the store (`GraphRecordBatch.Value.blob`) is read a
    /// chunk at a time and handed on as its base64 grows, in the middle of its line, so the
    /// export holds one chunk of it, never the value or its line.
    private mutating func attribute(_ column: GraphExportColumns.Attribute, of position: Int, in records: GraphRecordBatch, entity: Int) throws {
        let value = records.value(of: position, attribute: column.index)
        guard case .blob(let blob) = value else {
            writer.value(value, type: column.type, in: records)
            return
        }
        writer.beginBinary()
        var read: Int64 = 0
        let context = self.context
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
                entity: entity.name, property: entity.attributes[column.index].name,
                reason: "blob \(blob.hash.lowercaseHex) gave \(read) of its \(blob.size) bytes (cloner check-store names such problems)")
        }
        writer.endBinary()
    }

    /// The header line: the entities walked, and those their relationships may point at
    /// (references).
    mutating func writeHeader() throws {
        var used: [Int: Bool] = [:]  // tag → has object lines
        for tag in walk.entities { used[tag] = true }
        for tag in walk.entities {
            for relationship in relationships(of: tag, isRoot: false) where used[schema.entityTag(relationship.destination)] == nil {
                used[schema.entityTag(relationship.destination)] = false
            }
        }
        for relationship in relationships(of: rootTag, isRoot: true) where used[schema.entityTag(relationship.destination)] == nil {
            used[schema.entityTag(relationship.destination)] = false
        }
        var entities: [String: JSONValue] = [:]
        for (tag, hasObjects) in used {
            entities[model.entities[tag].name] = headerEntity(model.entities[tag], hasObjects: hasObjects)
        }
        try line(
            .object([
                "kind": "header", "format": .string(GraphFormat.name), "version": .integer(GraphFormat.version),
                "fingerprint": .string(model.fingerprint),
                "root": .object(["entity": .string(copy.rootEntity), "ref": .integer(copy.rootID)]),
                "entities": .object(entities),
            ]))
    }

    private func relationships(of tag: Int, isRoot: Bool) -> [RelationshipDescription] {
        columns.relationships[tag][isRoot ? 1 : 0].map { model.entities[tag].relationships[$0.index] }
    }

    /// An entity as the header describes it: its attributes' types, its relationships when it
    /// has object lines, its natural key.
    private func headerEntity(_ entity: EntityDescription, hasObjects: Bool) -> JSONValue {
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
        return .object([
            "attributes": .object(attributes), "relationships": .object(relationships),
            "key": key.isEmpty ? .null : .array(key.map(JSONValue.string)),
        ])
    }

    /// A reference line: a shared object outside the walk, by its natural key and attributes.
    mutating func writeReference(entity tag: Int, id: Int64, at position: Int, in records: GraphRecordBatch) throws {
        writer.encoded(columns.referenceOpenings[tag])
        writer.integer(id)
        writer.encoded(columns.keyKey)
        if columns.keys[tag].isEmpty {
            writer.null()
        } else {
            writer.beginObject()
            for column in columns.keys[tag] {
                writer.encoded(column.key)
                if column.index < 0 {
                    writer.null()
                } else {
                    try attribute(column, of: position, in: records, entity: tag)
                }
            }
            writer.endObject()
        }
        writer.encoded(columns.attributesKey)
        writer.beginObject()
        for column in columns.attributes[tag][0] {
            writer.encoded(column.key)
            try attribute(column, of: position, in: records, entity: tag)
        }
        writer.endObject()
        writer.endObject()
        try endLine()
        references += 1
    }

    /// An object line: a walked object, its parent, attributes and relationships, and for a
    /// clone's root the object it was cloned from.
    mutating func writeObject(_ object: GraphWalk.Object, at position: Int, in records: GraphRecordBatch) throws {
        let tag = object.entity
        let isRoot = tag == rootTag && object.id == copy.rootID
        writer.encoded(columns.objectOpenings[tag])
        writer.integer(object.id)
        writer.encoded(columns.parentKey)
        if let parentEntity = object.parentEntity, let parentID = object.parentID {
            writer.encoded(columns.parentOpenings[parentEntity])
            writer.integer(parentID)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.encoded(columns.attributesKey)
        writer.beginObject()
        for column in columns.attributes[tag][isRoot ? 1 : 0] {
            writer.encoded(column.key)
            try attribute(column, of: position, in: records, entity: tag)
        }
        writer.endObject()
        writer.encoded(columns.relationshipsKey)
        writer.beginObject()
        for relationship in columns.relationships[tag][isRoot ? 1 : 0] {
            writer.encoded(relationship.key)
            let destinations = records.destinations(of: position, relationship: relationship.index)
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
        writePlaces(of: position, in: records, relationships: columns.relationships[tag][isRoot ? 1 : 0])
        // A clone's root says what it was cloned from, by its `_id` in this store.
        if let source = clonedFrom[tag][object.id] {
            writer.encoded(columns.clonedFromKey)
            writer.encoded(columns.clonedFromOpenings[tag])
            writer.integer(source)
            writer.endObject()
        }
        writer.endObject()
        try endLine()
    }

    /// After `relationships`, for an object with an ordered list declared into an inheritance
    /// hierarchy: `"places": {"posts__Post": [1, 3], "posts__Page": [0, 2]}`, the place of each
    /// destination of a part in the declared list (null where the store holds none), so an
    /// import keeps one order over the parts (docs/architecture.md#relationships-into-a-hierarchy).
    /// Nothing for any other object.
    private mutating func writePlaces(of position: Int, in records: GraphRecordBatch, relationships: [GraphExportColumns.Relationship]) {
        var started = false
        for relationship in relationships {
            guard let places = records.places(of: position, relationship: relationship.index) else { continue }
            if !started {
                writer.encoded(columns.placesKey)
                writer.beginObject()
                started = true
            }
            writer.encoded(relationship.key)
            writer.beginArray()
            for place in places {
                if place == .min { writer.null() } else { writer.integer(place) }
            }
            writer.endArray()
        }
        if started { writer.endObject() }
    }

    /// The end line, and the last piece.
    mutating func finish() throws -> GraphExporter.Summary {
        let objects = walk.objects.count
        try line(.object(["kind": "end", "objects": .integer(Int64(objects)), "references": .integer(Int64(references))]))
        if !writer.bytes.isEmpty {
            bytes += writer.bytes.count
            try emit(writer.bytes)
        }
        return GraphExporter.Summary(objects: objects, references: references, bytes: bytes)
    }
}
