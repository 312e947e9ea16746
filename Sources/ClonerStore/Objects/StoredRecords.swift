import ClonerModel
import Foundation

/// Records of one entity read for an answer, held by position rather than by name: the values of
/// record `i` are `attributes[i * entity.attributes.count ..< (i + 1) * entity.attributes.count]`
/// in model order, and likewise for relationships.
///
/// `StoredObject` keeps a dictionary per record keyed by property name, which suits code that
/// looks properties up; a read route writes every property in model order, and building, hashing
/// and tearing down two dictionaries per row cost more than reading the rows (string hashing,
/// retain/release and malloc).
public struct StoredRecords: Sendable {
    public let entity: EntityDescription
    public private(set) var ids: [Int64] = []
    public private(set) var versions: [Int64] = []
    public private(set) var attributes: [AttributeValue] = []
    public private(set) var relationships: [RelationshipValue] = []
    /// Binary values left in the store rather than read (`fetchRecords(inlineBinaryBytes:)`): their
    /// sizes in bytes, by their index in `attributes`, where the value is `.null`. Empty when every
    /// value was read.
    public private(set) var storedBinaries: [Int: Int64] = [:]
    /// Binary values a record read has not read, being larger than it reads with the row
    /// (`SQLRecordColumns.rowBinaryBytes`): their blobs, by index in `attributes`, where the value
    /// is `.null`. `readBinaryValues` reads them or leaves them in the store.
    public private(set) var unreadBinaries: [Int: BlobReference] = [:]
    /// The `_id` each clone among the records was cloned from (an object of the same entity,
    /// perhaps deleted since), by record index (docs/architecture.md#lineage). Empty when no record
    /// is a clone.
    public private(set) var clonedFrom: [Int: Int64] = [:]
    /// For an ordered to-many part of a field declared into an inheritance hierarchy, the place of
    /// each listed `_id` in the declared list, by the value's index in `relationships`: what
    /// merges the parts into one order (docs/architecture.md#relationships-into-a-hierarchy). A
    /// row without a place reads as `Int64.min`, first, as its part sorts it. Empty when no
    /// record has such a part.
    public private(set) var listPlaces: [Int: [Int64]] = [:]

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

    /// Notes that the binary value of attribute `attribute` of the last record appended, `blob`,
    /// is still to be read: `.null` until then, whatever the row read of it.
    mutating func noteUnreadBinary(_ blob: BlobReference, attribute: Int) {
        let slot = (count - 1) * entity.attributes.count + attribute
        attributes[slot] = .null
        unreadBinaries[slot] = blob
    }

    /// The blob of a binary value a row read: still to be read unless the row read all of it (a
    /// value up to `SQLRecordColumns.rowBinaryBytes` in one chunk).
    mutating func noteBinary(_ blob: BlobReference, attribute: Int) {
        let slot = (count - 1) * entity.attributes.count + attribute
        if case .binary(let bytes) = attributes[slot], bytes.count == blob.size { return }
        noteUnreadBinary(blob, attribute: attribute)
    }

    /// Notes that the last record appended is a clone of object `source` of its entity.
    mutating func noteClonedFrom(_ source: Int64) { clonedFrom[count - 1] = source }

    /// The `_id` record `index` was cloned from; nil when it is no clone.
    public func clonedFrom(record index: Int) -> Int64? { clonedFrom.isEmpty ? nil : clonedFrom[index] }

    /// The blob of attribute `attribute` of record `index` when its value was not read.
    public func unreadBinary(record index: Int, attribute: Int) -> BlobReference? {
        unreadBinaries.isEmpty ? nil : unreadBinaries[index * entity.attributes.count + attribute]
    }

    /// Sets the binary value that was still to be read.
    mutating func setUnreadBinary(_ bytes: Data, record index: Int, attribute: Int) {
        let slot = index * entity.attributes.count + attribute
        unreadBinaries[slot] = nil
        attributes[slot] = .binary(bytes)
    }

    /// Leaves the binary value of attribute `attribute` of record `index`, `size` bytes, in the
    /// store: `.null` in `attributes`, its size in `storedBinaries`.
    mutating func leaveStored(size: Int64, record index: Int, attribute: Int) {
        let slot = index * entity.attributes.count + attribute
        attributes[slot] = .null
        unreadBinaries[slot] = nil
        storedBinaries[slot] = size
    }

    /// The size of the binary value of attribute `attribute` of record `index` when the value was
    /// left in the store.
    public func storedBinary(record index: Int, attribute: Int) -> Int64? {
        storedBinaries.isEmpty ? nil : storedBinaries[index * entity.attributes.count + attribute]
    }

    /// Appends record `index` of `other` (records of the same entity), with what is still to read
    /// of it: how a read puts the rows it found into the order asked for.
    mutating func appendRecord(_ index: Int, of other: StoredRecords) {
        append(id: other.ids[index], version: other.versions[index])
        attributes.append(contentsOf: other.attributes(at: index))
        relationships.append(contentsOf: other.relationships(at: index))
        if let source = other.clonedFrom(record: index) { noteClonedFrom(source) }
        if !other.listPlaces.isEmpty {
            let width = entity.relationships.count
            for relationship in 0..<width {
                if let places = other.listPlaces[index * width + relationship] { listPlaces[(count - 1) * width + relationship] = places }
            }
        }
        guard !other.unreadBinaries.isEmpty else { return }
        let width = entity.attributes.count
        for attribute in 0..<width {
            if let blob = other.unreadBinaries[index * width + attribute] { unreadBinaries[(count - 1) * width + attribute] = blob }
        }
    }

    /// Replaces the value of relationship `relationship` (its index in `entity.relationships`) of
    /// record `index`: to-one values stored on the row are read with the row, the others after it.
    public mutating func setRelationship(_ value: RelationshipValue, record index: Int, relationship: Int) {
        relationships[index * entity.relationships.count + relationship] = value
    }

    /// The places in the declared list of the `_id`s of relationship `relationship` of record
    /// `index` (`listPlaces`), in the order of its value; nil for a relationship without them.
    public func places(record index: Int, relationship: Int) -> [Int64]? {
        listPlaces.isEmpty ? nil : listPlaces[index * entity.relationships.count + relationship]
    }

    /// Sets `places` beside the value of relationship `relationship` of record `index`.
    mutating func setPlaces(_ places: [Int64], record index: Int, relationship: Int) {
        listPlaces[index * entity.relationships.count + relationship] = places
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
