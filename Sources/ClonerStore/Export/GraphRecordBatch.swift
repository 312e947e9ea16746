import ClonerModel
import Foundation

/// Records of one entity read for an export, by position in the batch's `ids`, in flat buffers
/// that batch after batch reuses (a class: the export reads it a value at a time, where copies
/// of a struct out of an array, retaining every buffer, showed in its profile): values in one array (attribute by attribute, in model order),
/// the bytes of text and binary values in one byte array, relationships in `GraphDestinations`.
///
/// The export writes every value once, straight into its output; a `StoredObject` per row — two
/// dictionaries keyed by name, a `String` or `Data` per value — cost more than reading the rows
/// (in a profile of `cloner export`, building and tearing them down was a good part of the
/// samples), and a binary value was copied four times on its way out. Here a blob's bytes are
/// copied once, from SQLite's page into `bytes`, and encoded from there.
public final class GraphRecordBatch {
    /// An attribute value as the store read it; its attribute's type says how to write it.
    public enum Value: Sendable, Equatable {
        case null
        /// An integer, a date (milliseconds since 1970) or a boolean (non-zero is true).
        case integer(Int64)
        case double(Double)
        /// Bytes `range` of `bytes`: a string's or JSON value's UTF-8 text, a binary value.
        case bytes(Range<Int>)
        case uuid(UUID)
        /// A value the store holds in another form than its type's usual one, converted as a
        /// fetch converts it.
        case other(AttributeValue)
        /// A binary value larger than `streamedBinaryBytes`, left in the store: the export
        /// streams it from there a chunk at a time (`readBlob`) rather than hold it whole.
        case blob(BlobReference)
    }

    /// Binary values larger than this are not read into a batch (`Value.blob`): a value of a
    /// hundred megabytes would otherwise be held whole, and its line of base64 too, while the
    /// client reads it.
    public static let streamedBinaryBytes: Int64 = 1 << 20

    public private(set) var entity: EntityDescription?
    private var relationships = GraphDestinations()
    /// The entity's attribute count: values per record.
    private var attributeCount = 0
    private var found: [Bool] = []
    /// The places in the declared list of the ordered parts of fields declared into a hierarchy
    /// (`StoredRecords.listPlaces`), by `position * relationships + relationship`; empty when
    /// the batch has none.
    private var places: [Int: [Int64]] = [:]
    private var values: [Value] = []
    private var bytes: [UInt8] = []
    /// The bytes of binary values read into this batch: what the export sizes its batches by.
    public private(set) var binaryBytes = 0

    public init() {}

    /// The `_id`s asked for, in the order asked.
    public var ids: [Int64] { relationships.sources }

    /// Whether the record at `position` exists (a missing one has no values).
    public func isFound(_ position: Int) -> Bool { found[position] }

    /// Attribute `attribute` (its index in the entity's attributes) of the record at `position`.
    public func value(of position: Int, attribute: Int) -> Value {
        values[position * attributeCount + attribute]
    }

    /// What relationship `relationship` (its index in the entity's relationships) of the record
    /// at `position` holds: at most one `_id` for a to-one.
    public func destinations(of position: Int, relationship: Int) -> ArraySlice<Int64> {
        relationships.destinations(of: position, list: relationship)
    }

    /// Hands `range` of the batch's bytes (a `.bytes` value) to `body`, without copying them.
    public func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Empties the batch for records of `entity` with `ids` (distinct), keeping its buffers.
    func reset(entity: EntityDescription, ids: [Int64]) {
        self.entity = entity
        attributeCount = entity.attributes.count
        relationships.reset(sources: ids, width: entity.relationships.count)
        found.removeAll(keepingCapacity: true)
        found.append(contentsOf: repeatElement(false, count: ids.count))
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: repeatElement(.null, count: ids.count * entity.attributes.count))
        bytes.removeAll(keepingCapacity: true)
        binaryBytes = 0
        places.removeAll(keepingCapacity: true)
    }

    /// The places in its declared list of each destination of relationship `relationship` of
    /// the record at `position`, in the order of `destinations`: an ordered part of a field
    /// declared into a hierarchy; nil for any other relationship.
    public func places(of position: Int, relationship: Int) -> [Int64]? {
        places.isEmpty ? nil : places[position * (entity?.relationships.count ?? 0) + relationship]
    }

    /// The place of the next destination of `relationship` of `source`, as `appendRelationship`
    /// adds it.
    func appendPlace(_ place: Int64, source: Int64, relationship: Int) {
        guard let position = position(of: source) else { return }
        places[position * (entity?.relationships.count ?? 0) + relationship, default: []].append(place)
    }

    /// The position of `id` in `ids`, or nil.
    func position(of id: Int64) -> Int? { relationships.position(of: id) }

    func markFound(_ position: Int) { found[position] = true }

    func set(_ value: Value, of position: Int, attribute: Int) {
        values[position * attributeCount + attribute] = value
    }

    /// Copies `count` bytes at `start` into the batch; the range they now have.
    func appendBytes(_ start: UnsafeRawPointer?, count: Int) -> Range<Int> {
        let first = bytes.count
        if let start, count > 0 { bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count)) }
        return first..<bytes.count
    }

    /// Adds `count` bytes at `start` to binary attribute `attribute` of the record at `position`:
    /// a blob's chunks, given in order, one after the other (the record's previous value, unless
    /// it ends where the batch's bytes end, is started over).
    func appendChunk(_ start: UnsafeRawPointer?, count: Int, of position: Int, attribute: Int) {
        let slot = position * attributeCount + attribute
        let range = appendBytes(start, count: count)
        if case .bytes(let earlier) = values[slot], earlier.upperBound == range.lowerBound {
            values[slot] = .bytes(earlier.lowerBound..<range.upperBound)
        } else {
            values[slot] = .bytes(range)
        }
        binaryBytes += count
    }

    func setRelationship(_ destination: Int64?, of position: Int, relationship: Int) {
        relationships.set(destination, of: position, list: relationship)
    }

    /// A row of a query answering `relationship` with its rows grouped by source (`endList` after
    /// the last).
    func appendRelationship(_ destination: Int64, source: Int64, relationship: Int) {
        relationships.append(destination, source: source, list: relationship)
    }

    func endRelationshipList() { relationships.endList() }
}
