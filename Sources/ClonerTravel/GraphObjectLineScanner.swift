import ClonerModel
import Foundation

/// Reads an object line of the shape the exporter writes straight from its bytes into an
/// `ObjectLine`, without a `JSONValue` tree of the line: parsing every line into dictionaries of
/// `JSONValue`s was most of what a check of a large document cost.
///
/// It takes only what it is sure of — members `kind` (`"object"`) and `entity` before `attributes`
/// and `relationships`, `places` after them, names and strings without escapes, each member once
/// — and answers nil for anything else, valid or not: `GraphDocumentLines` then reads the line the
/// general way, which either accepts it or names the line and field at fault. So a line is never refused here, and a
/// line taken here gives the `ObjectLine` the general way gives.
struct GraphObjectLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The object line `bytes` holds, or nil when the general reading must decide.
    static func scan(
        _ bytes: ArraySlice<UInt8>, line: Int, header: [String: GraphDocumentLines.HeaderEntity]
    ) -> GraphDocumentLines.ObjectLine? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = GraphObjectLineScanner(buffer)
            return scanner.objectLine(line: line, header: header)
        }
    }

    private enum Member: UInt8 {
        case kind = 1
        case entity = 2
        case ref = 4
        case parent = 8
        case attributes = 16
        case relationships = 32
        case places = 64
    }

    private static let memberNames: [(name: [UInt8], member: Member)] = [
        (Array("kind".utf8), .kind), (Array("entity".utf8), .entity), (Array("ref".utf8), .ref),
        (Array("parent".utf8), .parent), (Array("attributes".utf8), .attributes), (Array("relationships".utf8), .relationships),
        (Array("places".utf8), .places),
    ]

    private mutating func objectLine(line: Int, header: [String: GraphDocumentLines.HeaderEntity]) -> GraphDocumentLines.ObjectLine? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt8 = 0
        var entity: GraphDocumentLines.HeaderEntity?
        var ref: Int64?
        var parent: (entity: String, ref: Int64)?
        var attributes: [String: AttributeValue]?
        var relationships: [(relationship: RelationshipDescription, refs: [Int64])]?
        var places: [String: [Int64?]] = [:]
        repeat {
            skipWhitespace()
            guard let name = plainString() else { return nil }
            guard let member = Self.memberNames.first(where: { $0.name.elementsEqual(name) })?.member, seen & member.rawValue == 0 else {
                return nil
            }
            seen |= member.rawValue
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch member {
            case .kind:
                guard let kind = plainString(), kind.elementsEqual("object".utf8) else { return nil }
            case .entity:
                guard let name = plainString().flatMap({ String(validating: $0, as: UTF8.self) }), let found = header[name] else { return nil }
                entity = found
            case .ref:
                guard let value = integer() else { return nil }
                ref = value
            case .parent:
                if takeLiteral("null") { break }
                guard let value = parentMember() else { return nil }
                // Under the target's name, as `GraphDocumentLines.targetName(ofDocumentEntity:)` gives it.
                parent = (header[value.entity]?.target.name ?? value.entity, value.ref)
            case .attributes:
                guard seen & Member.kind.rawValue != 0, let entity, let values = attributeValues(of: entity) else { return nil }
                attributes = values
            case .relationships:
                guard seen & Member.kind.rawValue != 0, let entity, let links = links(of: entity) else { return nil }
                relationships = links
            case .places:
                // After `relationships`, as the exporter writes it: each list's count is known.
                guard let entity, let relationships, let lists = placeLists(of: entity, relationships: relationships) else { return nil }
                places = lists
            }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard index == bytes.count, let entity, let ref, let attributes, let relationships else { return nil }
        var object = GraphDocumentLines.ObjectLine(
            line: line, entity: entity.target, ref: ref, parent: parent, attributes: attributes, relationships: relationships)
        object.places = places
        return object
    }

    /// `{"entity": name, "ref": integer}`, nothing else.
    private mutating func parentMember() -> (entity: String, ref: Int64)? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var entity: String?
        var ref: Int64?
        repeat {
            skipWhitespace()
            guard let name = plainString() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            if name.elementsEqual("entity".utf8), entity == nil {
                guard let value = plainString().flatMap({ String(validating: $0, as: UTF8.self) }) else { return nil }
                entity = value
            } else if name.elementsEqual("ref".utf8), ref == nil {
                guard let value = integer() else { return nil }
                ref = value
            } else {
                return nil
            }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let entity, let ref else { return nil }
        return (entity, ref)
    }

    /// The attributes by the target's names, each value as `AttributeValue.decode` reads it.
    private mutating func attributeValues(of entity: GraphDocumentLines.HeaderEntity) -> [String: AttributeValue]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var values: [String: AttributeValue] = [:]
        values.reserveCapacity(entity.attributes.count)
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return values }
        repeat {
            skipWhitespace()
            guard let name = plainString().flatMap({ String(validating: $0, as: UTF8.self) }), let attribute = entity.attributes[name] else {
                return nil
            }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            // A value the attribute cannot hold goes to the general reading, which names the problem.
            guard let value = attributeValue(attribute.type), attribute.valueProblem(value) == nil,
                values.updateValue(value, forKey: attribute.name) == nil
            else { return nil }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return values
    }

    private mutating func attributeValue(_ type: AttributeType) -> AttributeValue? {
        guard index < bytes.count else { return nil }
        let json: JSONValue
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let text = plainString(checked: type != .binary) else { return nil }
            if type == .binary {
                // Base64 decoded from the bytes: no String of the whole value first.
                return Data(base64Encoded: Data(text)).map(AttributeValue.binary)
            }
            // `UUID(uuidString:)` parses with `sscanf` on Linux; the text form is read here, and
            // any other form the general way.
            if type == .uuid, let uuid = UUID(hexUTF8: text) { return .uuid(uuid) }
            if type == .date, let milliseconds = RFC3339Timestamp.parse(utf8: text) { return .date(millisecondsSince1970: milliseconds) }
            guard let string = String(validating: text, as: UTF8.self) else { return nil }
            json = .string(string)
        case UInt8(ascii: "n"):
            guard takeLiteral("null") else { return nil }
            return .null
        case UInt8(ascii: "t"):
            guard takeLiteral("true") else { return nil }
            json = .bool(true)
        case UInt8(ascii: "f"):
            guard takeLiteral("false") else { return nil }
            json = .bool(false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            // The general parser decides what the number is (integer, double, out of range).
            guard let number = try? JSONValue(parsing: Array(bytes[start..<index])) else { return nil }
            json = number
        default:
            return nil
        }
        return try? AttributeValue.decode(json: json, type: type)
    }

    /// The relationships in the order of their names, as the general reading lists them.
    private mutating func links(of entity: GraphDocumentLines.HeaderEntity) -> [(relationship: RelationshipDescription, refs: [Int64])]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var links: [(name: String, relationship: RelationshipDescription, refs: [Int64])] = []
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard let name = plainString().flatMap({ String(validating: $0, as: UTF8.self) }),
                    let relationship = entity.relationships[name], !links.contains(where: { $0.name == name })
                else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                if relationship.isToMany {
                    guard let refs = integerList() else { return nil }
                    links.append((name, relationship, refs))
                } else if takeLiteral("null") {
                    links.append((name, relationship, []))
                } else {
                    guard let ref = integer() else { return nil }
                    links.append((name, relationship, [ref]))
                }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        links.sort { $0.name < $1.name }
        return links.compactMap { $0.refs.isEmpty ? nil : ($0.relationship, $0.refs) }
    }

    /// `places`: per to-many listed in `relationships`, a place (integer or null) per ref; kept
    /// where the target's list is ordered, as the general reading keeps them.
    private mutating func placeLists(
        of entity: GraphDocumentLines.HeaderEntity, relationships: [(relationship: RelationshipDescription, refs: [Int64])]
    ) -> [String: [Int64?]]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var lists: [String: [Int64?]] = [:]
        var names: Set<String> = []
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return lists }
        repeat {
            skipWhitespace()
            guard let name = plainString().flatMap({ String(validating: $0, as: UTF8.self) }), names.insert(name).inserted,
                let relationship = entity.relationships[name], relationship.isToMany
            else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: "[")) else { return nil }
            let count = relationships.first { $0.relationship.name == relationship.name }?.refs.count ?? 0
            var places: [Int64?] = []
            skipWhitespace()
            if !take(UInt8(ascii: "]")) {
                repeat {
                    skipWhitespace()
                    if takeLiteral("null") {
                        places.append(nil)
                    } else {
                        guard let place = integer() else { return nil }
                        places.append(place)
                    }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "]")) else { return nil }
            }
            guard places.count == count else { return nil }
            if relationship.isOrdered { lists[relationship.name] = places }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return lists
    }

    private mutating func integerList() -> [Int64]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var refs: [Int64] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return refs }
        repeat {
            skipWhitespace()
            guard let ref = integer() else { return nil }
            refs.append(ref)
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        return refs
    }

    // MARK: Tokens

    /// An integer as JSON writes one (no leading zero, no fraction or exponent) of at most 18
    /// digits; anything else is the general parser's, which refuses what Int64 cannot hold. Any
    /// 18 digits fit an Int64, so the digit count is checked before each step of the sum: the
    /// text is the client's, and a 19th digit could overflow it.
    private mutating func integer() -> Int64? {
        var position = index
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let digitsStart = position
        var value: Int64 = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            guard position - digitsStart < 18 else { return nil }
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - digitsStart
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        if position < bytes.count, Self.isNumberByte(bytes[position]) { return nil }
        index = position
        return negative ? -value : value
    }

    /// The bytes of a string with no escape and no control character (nil for any other).
    /// Unless `checked`, a string that has either comes back as it is: for base64, whose decoder
    /// refuses both, so the line goes to the general reading all the same.
    private mutating func plainString(checked: Bool = true) -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // A long string (a binary value's base64) is found with `memchr`, then checked, rather
        // than read a byte at a time.
        if bytes.count - start > 64, let base = bytes.baseAddress,
            let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start)
        {
            let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(quote))
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard !checked || !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\\") }) else { return nil }
            index = end + 1
            return text
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    private mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        guard UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(expected) else { return false }
        if index + count < bytes.count, Self.isLetter(bytes[index + count]) { return false }
        index += count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            return true
        default: return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
