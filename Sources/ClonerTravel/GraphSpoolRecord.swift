import ClonerModel
import Foundation

/// The object and reference lines of a checked graph document in a compact binary form, as its
/// spool keeps them between the check (while the body streams in) and the write: reading them
/// back costs a copy, not a second JSON parse, and binary values are their bytes, not base64.
///
/// A record: its length (4 bytes), a kind (1 object, 2 reference), the line number, the entity
/// (its index in the model), the ref; then for an object its parent (or none), attributes (index
/// in the entity, value), relationships (index in the entity, refs) and places (index in the
/// entity, a place per ref: an ordered list declared into a hierarchy); for a reference its key
/// (or none) and attributes. Integers are little-endian.
enum GraphSpoolRecord {
    case object(GraphDocumentLines.ObjectLine)
    case reference(GraphDocumentLines.ReferenceLine)

    // MARK: Writing

    static func append(_ object: GraphDocumentLines.ObjectLine, model: ModelIndex, to bytes: inout [UInt8]) {
        let start = beginRecord(&bytes, kind: 1, line: object.line, entity: model.index(of: object.entity.name), ref: object.ref)
        if let parent = object.parent {
            bytes.append(1)
            appendInteger(UInt16(model.index(of: parent.entity)), &bytes)
            appendInteger(UInt64(bitPattern: parent.ref), &bytes)
        } else {
            bytes.append(0)
        }
        appendAttributes(object.attributes, of: object.entity, &bytes)
        appendInteger(UInt16(object.relationships.count), &bytes)
        for (relationship, refs) in object.relationships {
            appendInteger(UInt16(object.entity.relationships.firstIndex(where: { $0.name == relationship.name })!), &bytes)
            appendInteger(UInt32(refs.count), &bytes)
            for ref in refs { appendInteger(UInt64(bitPattern: ref), &bytes) }
        }
        appendInteger(UInt16(object.places.count), &bytes)
        for (name, places) in object.places.sorted(by: { $0.key < $1.key }) {
            appendInteger(UInt16(object.entity.relationships.firstIndex(where: { $0.name == name })!), &bytes)
            appendInteger(UInt32(places.count), &bytes)
            // No place: the lowest integer, which no place a store writes holds.
            for place in places { appendInteger(UInt64(bitPattern: place ?? .min), &bytes) }
        }
        endRecord(&bytes, start: start)
    }

    static func append(_ reference: GraphDocumentLines.ReferenceLine, model: ModelIndex, to bytes: inout [UInt8]) {
        let start = beginRecord(&bytes, kind: 2, line: reference.line, entity: model.index(of: reference.entity.name), ref: reference.ref)
        if let key = reference.key {
            bytes.append(1)
            appendAttributes(key, of: reference.entity, &bytes)
        } else {
            bytes.append(0)
        }
        appendAttributes(reference.attributes, of: reference.entity, &bytes)
        endRecord(&bytes, start: start)
    }

    private static func beginRecord(_ bytes: inout [UInt8], kind: UInt8, line: Int, entity: Int, ref: Int64) -> Int {
        let start = bytes.count
        appendInteger(UInt32(0), &bytes)
        bytes.append(kind)
        appendInteger(UInt64(line), &bytes)
        appendInteger(UInt16(entity), &bytes)
        appendInteger(UInt64(bitPattern: ref), &bytes)
        return start
    }

    private static func endRecord(_ bytes: inout [UInt8], start: Int) {
        let length = UInt32(bytes.count - start - 4)
        for index in 0..<4 { bytes[start + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(index))) }
    }

    private static func appendAttributes(_ values: [String: AttributeValue], of entity: EntityDescription, _ bytes: inout [UInt8]) {
        appendInteger(UInt16(values.count), &bytes)
        for (index, attribute) in entity.attributes.enumerated() {
            guard let value = values[attribute.name] else { continue }
            appendInteger(UInt16(index), &bytes)
            appendValue(value, &bytes)
        }
    }

    private static func appendInteger<T: FixedWidthInteger>(_ value: T, _ bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendData<C: Collection>(_ data: C, _ bytes: inout [UInt8]) where C.Element == UInt8 {
        appendInteger(UInt32(data.count), &bytes)
        bytes.append(contentsOf: data)
    }

    private static func appendValue(_ value: AttributeValue, _ bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(0)
        case .string(let text): bytes.append(1); appendData(text.utf8, &bytes)
        case .integer(let integer): bytes.append(2); appendInteger(UInt64(bitPattern: integer), &bytes)
        case .double(let double): bytes.append(3); appendInteger(double.bitPattern, &bytes)
        case .boolean(let flag): bytes.append(4); bytes.append(flag ? 1 : 0)
        case .date(let milliseconds): bytes.append(5); appendInteger(UInt64(bitPattern: milliseconds), &bytes)
        case .uuid(let uuid): bytes.append(6); withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        case .binary(let data): bytes.append(7); appendData(data, &bytes)
        case .json(let text): bytes.append(8); appendData(text.utf8, &bytes)
        case .decimal(let decimal): bytes.append(9); appendData(decimal.text.utf8, &bytes)
        }
    }

    // MARK: Reading

    /// Reads one record (without its length prefix) written by `append`.
    static func read(_ record: UnsafeRawBufferPointer, model: ModelIndex) -> GraphSpoolRecord {
        var reader = Reader(buffer: record)
        let kind = reader.byte()
        let line = Int(reader.integer(UInt64.self))
        let entity = model.entities[Int(reader.integer(UInt16.self))]
        let ref = Int64(bitPattern: reader.integer(UInt64.self))
        if kind == 1 {
            var parent: (entity: String, ref: Int64)?
            if reader.byte() == 1 {
                let parentEntity = model.entities[Int(reader.integer(UInt16.self))].name
                parent = (parentEntity, Int64(bitPattern: reader.integer(UInt64.self)))
            }
            let attributes = reader.attributes(of: entity)
            var relationships: [(relationship: RelationshipDescription, refs: [Int64])] = []
            let count = Int(reader.integer(UInt16.self))
            relationships.reserveCapacity(count)
            for _ in 0..<count {
                let relationship = entity.relationships[Int(reader.integer(UInt16.self))]
                let refCount = Int(reader.integer(UInt32.self))
                var refs: [Int64] = []
                refs.reserveCapacity(refCount)
                for _ in 0..<refCount { refs.append(Int64(bitPattern: reader.integer(UInt64.self))) }
                relationships.append((relationship, refs))
            }
            var object = GraphDocumentLines.ObjectLine(
                line: line, entity: entity, ref: ref, parent: parent, attributes: attributes, relationships: relationships)
            for _ in 0..<Int(reader.integer(UInt16.self)) {
                let relationship = entity.relationships[Int(reader.integer(UInt16.self))]
                let placeCount = Int(reader.integer(UInt32.self))
                var places: [Int64?] = []
                places.reserveCapacity(placeCount)
                for _ in 0..<placeCount {
                    let place = Int64(bitPattern: reader.integer(UInt64.self))
                    places.append(place == .min ? nil : place)
                }
                object.places[relationship.name] = places
            }
            return .object(object)
        }
        let key = reader.byte() == 1 ? reader.attributes(of: entity) : nil
        let attributes = reader.attributes(of: entity)
        return .reference(GraphDocumentLines.ReferenceLine(line: line, entity: entity, ref: ref, key: key, attributes: attributes))
    }

    /// The model's entities by index, for records that name them by number.
    struct ModelIndex {
        let entities: [EntityDescription]
        private let indices: [String: Int]

        init(_ model: DataModel) {
            entities = model.entities
            var indices: [String: Int] = [:]
            for (index, entity) in model.entities.enumerated() { indices[entity.name] = index }
            self.indices = indices
        }

        func index(of entity: String) -> Int { indices[entity]! }
    }

    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return buffer[offset]
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T {
            defer { offset += MemoryLayout<T>.size }
            return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
        }

        mutating func bytes() -> UnsafeRawBufferPointer {
            let count = Int(integer(UInt32.self))
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
        }

        mutating func value() -> AttributeValue {
            switch byte() {
            case 1: return .string(String(decoding: bytes(), as: UTF8.self))
            case 2: return .integer(Int64(bitPattern: integer(UInt64.self)))
            case 3: return .double(Double(bitPattern: integer(UInt64.self)))
            case 4: return .boolean(byte() == 1)
            case 5: return .date(millisecondsSince1970: Int64(bitPattern: integer(UInt64.self)))
            case 6:
                var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + 16])) }
                offset += 16
                return .uuid(UUID(uuid: raw))
            case 7: return .binary(Data(bytes()))
            case 8: return .json(String(decoding: bytes(), as: UTF8.self))
            // Written above from a decimal's canonical text, so it reads back.
            case 9: return (try? ExactDecimal(parsing: String(decoding: bytes(), as: UTF8.self))).map(AttributeValue.decimal) ?? .null
            default: return .null
            }
        }

        mutating func attributes(of entity: EntityDescription) -> [String: AttributeValue] {
            let count = Int(integer(UInt16.self))
            var values: [String: AttributeValue] = [:]
            values.reserveCapacity(count)
            for _ in 0..<count {
                let attribute = entity.attributes[Int(integer(UInt16.self))]
                values[attribute.name] = value()
            }
            return values
        }
    }
}
