import ClonerModel

/// Records of one entity read for an answer, held by position rather than by name: the values of
/// record `i` are `attributes[i * entity.attributes.count ..< (i + 1) * entity.attributes.count]`
/// in model order, and likewise for relationships.
///
/// `StoredObject` keeps a dictionary per record keyed by property name, which suits code that
/// looks properties up; a read route writes every property in model order, and building, hashing
/// and tearing down two dictionaries per row cost more than reading the rows (in a profile,
/// string hashing, retain/release and malloc were half the time of `GET /items`).
public struct StoredRecords: Sendable {
    public let entity: EntityDescription
    public private(set) var ids: [Int64] = []
    public private(set) var versions: [Int64] = []
    public private(set) var attributes: [AttributeValue] = []
    public private(set) var relationships: [RelationshipValue] = []
    /// Binary values left in the store rather than read (`fetchRecords(inlineBinaryBytes:)`), by
    /// their index in `attributes`; the value there is `.null`. Empty when every value was read.
    public private(set) var storedBinaries: [Int: BlobReference] = [:]

    public init(entity: EntityDescription, capacity: Int = 0) {
        self.entity = entity
        ids.reserveCapacity(capacity)
        versions.reserveCapacity(capacity)
        attributes.reserveCapacity(capacity * entity.attributes.count)
        relationships.reserveCapacity(capacity * entity.relationships.count)
    }

    public var count: Int { ids.count }

    /// The attribute values of record `index`, in model order.
    public func attributes(at index: Int) -> ArraySlice<AttributeValue> {
        let width = entity.attributes.count
        return attributes[(index * width)..<((index + 1) * width)]
    }

    /// The relationship values of record `index`, in model order.
    public func relationships(at index: Int) -> ArraySlice<RelationshipValue> {
        let width = entity.relationships.count
        return relationships[(index * width)..<((index + 1) * width)]
    }

    /// Starts a record: the caller then appends one value per attribute (`appendAttribute`) and one
    /// per relationship (`appendRelationship`) of the entity, in model order.
    public mutating func append(id: Int64, version: Int64) {
        ids.append(id)
        versions.append(version)
    }

    public mutating func appendAttribute(_ value: AttributeValue) { attributes.append(value) }

    public mutating func appendRelationship(_ value: RelationshipValue) { relationships.append(value) }

    /// The value of attribute `attribute` (its index in `entity.attributes`) of record `index`.
    public func value(record index: Int, attribute: Int) -> AttributeValue {
        attributes[index * entity.attributes.count + attribute]
    }

    /// Replaces the value of attribute `attribute` (its index in `entity.attributes`) of record
    /// `index`: a binary value is read by its blob's key first, its bytes after.
    public mutating func setAttribute(_ value: AttributeValue, record index: Int, attribute: Int) {
        attributes[index * entity.attributes.count + attribute] = value
    }

    /// Leaves the binary value of attribute `attribute` of record `index` in the store: `.null` in
    /// `attributes`, its blob in `storedBinaries`.
    mutating func leaveStored(_ reference: BlobReference, record index: Int, attribute: Int) {
        let slot = index * entity.attributes.count + attribute
        attributes[slot] = .null
        storedBinaries[slot] = reference
    }

    /// The blob of attribute `attribute` of record `index` when its value was left in the store.
    public func storedBinary(record index: Int, attribute: Int) -> BlobReference? {
        storedBinaries.isEmpty ? nil : storedBinaries[index * entity.attributes.count + attribute]
    }

    /// Replaces the value of relationship `relationship` (its index in `entity.relationships`) of
    /// record `index`: to-one values stored on the row are read with the row, the others after it.
    public mutating func setRelationship(_ value: RelationshipValue, record index: Int, relationship: Int) {
        relationships[index * entity.relationships.count + relationship] = value
    }

    /// A record as a `StoredObject` (tests, and code that wants properties by name).
    public func object(at index: Int) -> StoredObject {
        var byName: [String: AttributeValue] = [:]
        for (attribute, value) in zip(entity.attributes, attributes(at: index)) { byName[attribute.name] = value }
        var links: [String: RelationshipValue] = [:]
        for (relationship, value) in zip(entity.relationships, relationships(at: index)) { links[relationship.name] = value }
        return StoredObject(entity: entity.name, id: ids[index], version: versions[index], attributes: byName, relationships: links)
    }
}

extension StoredRecords {
    /// The records of `objects`, in their order: what a backend without its own positional read
    /// returns through the shared default of `StoreContext.fetchRecords`.
    public init(entity: EntityDescription, objects: [StoredObject]) {
        self.init(entity: entity, capacity: objects.count)
        for object in objects {
            append(id: object.id, version: object.version)
            for attribute in entity.attributes { appendAttribute(object.attributes[attribute.name] ?? .null) }
            for relationship in entity.relationships {
                appendRelationship(object.relationships[relationship.name] ?? (relationship.isToMany ? .toMany([]) : .toOne(nil)))
            }
        }
    }
}

/// One page of a list: its records, whether more records follow and, when they do, the position
/// of the page's last record (where the next page's cursor starts).
public struct RecordPage: Sendable {
    public var records: StoredRecords
    /// Nil when no record follows.
    public var lastPosition: FetchRequest.Position?
    public var hasMore: Bool

    public init(records: StoredRecords, lastPosition: FetchRequest.Position?, hasMore: Bool) {
        self.records = records
        self.lastPosition = lastPosition
        self.hasMore = hasMore
    }
}
