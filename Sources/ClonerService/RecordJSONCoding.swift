import ClonerStore
import ClonerModel
import Foundation

/// Converts attribute values between their JSON form (DESIGN.md §2, §4) and `AttributeValue`,
/// and writes whole records.
///
/// JSON forms: date = RFC 3339 UTC with milliseconds (any offset and fraction length accepted on
/// input); uuid = canonical lower-case text (either case accepted); binary = base64; json = any
/// JSON value, stored as its canonical text (no whitespace, object keys sorted); integer = a
/// 64-bit integer (a fraction or an out-of-range number is refused, `1.0` is accepted: JSON has one
/// number type); boolean = `true`/`false` only (not 0/1); null = no value, for optional attributes.
public enum RecordJSONCoding {
    /// A JSON value as the attribute's type; JSON null becomes `.null` (the caller decides whether
    /// the attribute may be null). Errors name `field` and say what was expected.
    public static func decodeValue(_ json: JSONValue, type: AttributeType, field: String) throws(FieldError) -> AttributeValue {
        if case .null = json { return .null }
        switch type {
        case .string:
            guard case .string(let text) = json else { throw mismatch(field, expected: "a string", got: json) }
            return .string(text)
        case .integer:
            switch json {
            case .integer(let number): return .integer(number)
            case .double(let number) where number.rounded(.towardZero) == number:
                // Integers the parser could not keep as Int64 arrive as doubles; beyond 2^53 a double
                // no longer tells one integer from its neighbours (-9223372036854775809 rounds to
                // Int64.min), so only the exactly representable range is taken from one.
                guard let exact = Int64(exactly: number) else {
                    throw FieldError(field: field, message: "expected a 64-bit integer, got \(describe(json)), which is out of range")
                }
                guard exact.magnitude <= RecordJSONCoding.largestExactDoubleInteger else {
                    throw FieldError(field: field, message: "expected a 64-bit integer, got \(describe(json)), which is out of range or not exact: beyond ±2^53 write the integer without a fraction or exponent")
                }
                return .integer(exact)
            default:
                throw mismatch(field, expected: "an integer", got: json)
            }
        case .double:
            switch json {
            case .integer(let number): return .double(Double(number))
            case .double(let number): return .double(number)
            default: throw mismatch(field, expected: "a number", got: json)
            }
        case .boolean:
            guard case .bool(let flag) = json else { throw mismatch(field, expected: "true or false", got: json) }
            return .boolean(flag)
        case .date:
            guard case .string(let text) = json, let milliseconds = RFC3339Timestamp.parse(text) else {
                throw mismatch(field, expected: "an RFC 3339 date-time such as \"2026-11-21T20:15:29.123Z\"", got: json)
            }
            return .date(millisecondsSince1970: milliseconds)
        case .uuid:
            guard case .string(let text) = json, let uuid = UUID(uuidString: text) else {
                throw mismatch(field, expected: "a UUID such as \"0f8fad5b-d9cb-469f-a165-70867728950e\"", got: json)
            }
            return .uuid(uuid)
        case .binary:
            guard case .string(let text) = json, let data = Data(base64Encoded: text) else {
                throw mismatch(field, expected: "base64 text", got: json)
            }
            return .binary(data)
        case .json:
            return .json(canonicalText(json))
        }
    }

    /// 2^53: every integer up to it has its own double, so one read from a double is the integer
    /// the client wrote.
    static let largestExactDoubleInteger: UInt64 = 1 << 53

    /// A value given as text in a query string (`?name=foo`, `?index=3`): the same forms as in a
    /// body, minus the JSON quoting; `json` attributes take JSON text.
    public static func decodeQueryValue(_ text: String, type: AttributeType, field: String) throws(FieldError) -> AttributeValue {
        switch type {
        case .string:
            return .string(text)
        case .integer:
            guard let number = Int64(text) else { throw FieldError(field: field, message: "expected a 64-bit integer, got \(quoted(text))") }
            return .integer(number)
        case .double:
            guard let number = Double(text), number.isFinite else { throw FieldError(field: field, message: "expected a number, got \(quoted(text))") }
            return .double(number)
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: throw FieldError(field: field, message: "expected true or false, got \(quoted(text))")
            }
        case .date, .uuid, .binary:
            return try decodeValue(.string(text), type: type, field: field)
        case .json:
            do {
                return .json(canonicalText(try JSONValue(parsing: text)))
            } catch {
                throw FieldError(field: field, message: "expected JSON text: \(error.description)")
            }
        }
    }

    /// The canonical text a `json` attribute is stored as: equal values give equal text, so
    /// equality filters and unique indexes on the column behave.
    public static func canonicalText(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return writer.string
    }

    /// Writes a value in its JSON form.
    public static func writeValue(_ value: AttributeValue, to writer: inout JSONWriter) {
        switch value {
        case .null: writer.null()
        case .string(let text): writer.string(text)
        case .integer(let number): writer.integer(number)
        case .double(let number): writer.double(number)
        case .boolean(let flag): writer.bool(flag)
        case .date(let milliseconds): writer.date(millisecondsSince1970: milliseconds)
        case .uuid(let uuid): writer.uuid(uuid)
        case .binary(let data): writer.string(data.base64EncodedString())
        case .json(let text): writer.raw(text)
        }
    }

    /// The JSON text of one value (for `ETag`-style uses and messages; records use `writeRecord`).
    public static func jsonText(_ value: AttributeValue) -> String {
        var writer = JSONWriter(capacity: 32)
        writeValue(value, to: &writer)
        return writer.string
    }

    /// Writes a stored record as the flat object of DESIGN.md §4: `_id`, `_entity`, `_version`,
    /// then attributes and relationships in model order.
    ///
    /// - Parameters:
    ///   - attributes: one value per `entity.attributes`, same order.
    ///   - relationships: one value per `entity.relationships`, same order.
    public static func writeRecord(
        entity: EntityDescription, id: Int64, version: Int64,
        attributes: [AttributeValue], relationships: [RelationshipValue],
        to writer: inout JSONWriter
    ) {
        precondition(attributes.count == entity.attributes.count, "\(entity.name): \(attributes.count) values for \(entity.attributes.count) attributes")
        precondition(relationships.count == entity.relationships.count, "\(entity.name): \(relationships.count) values for \(entity.relationships.count) relationships")
        writer.beginObject()
        writer.key("_id"); writer.integer(id)
        writer.key("_entity"); writer.string(entity.name)
        writer.key("_version"); writer.integer(version)
        for (attribute, value) in zip(entity.attributes, attributes) {
            writer.key(attribute.name)
            writeValue(value, to: &writer)
        }
        for (relationship, value) in zip(entity.relationships, relationships) {
            writer.key(relationship.name)
            switch value {
            case .toOne(let target?): writer.integer(target)
            case .toOne(nil): writer.null()
            case .toMany(let targets):
                writer.beginArray()
                for target in targets { writer.integer(target) }
                writer.endArray()
            }
        }
        writer.endObject()
    }

    /// One record as bytes; for lists, call `writeRecord` repeatedly on one writer.
    public static func encodeRecord(
        entity: EntityDescription, id: Int64, version: Int64,
        attributes: [AttributeValue], relationships: [RelationshipValue]
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + 32 * (attributes.count + relationships.count))
        writeRecord(entity: entity, id: id, version: version, attributes: attributes, relationships: relationships, to: &writer)
        return writer.bytes
    }

    static func mismatch(_ field: String, expected: String, got json: JSONValue) -> FieldError {
        FieldError(field: field, message: "expected \(expected), got \(describe(json))")
    }

    /// A short rendering of what the client sent, for messages: scalars as written, containers by kind.
    static func describe(_ json: JSONValue) -> String {
        switch json {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number): return number.rounded(.towardZero) == number && abs(number) < 1e16 ? String(Int64(number)) : String(number)
        case .string(let text): return quoted(text)
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        var writer = JSONWriter(capacity: shown.utf8.count + 2)
        writer.string(shown)
        return writer.string
    }
}
