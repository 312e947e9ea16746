import ClonerStore
import ClonerModel
import Foundation

/// Converts attribute values between their JSON form (docs/architecture.md#the-model-file, #records) and `AttributeValue`,
/// and writes whole records.
///
/// JSON forms: date = RFC 3339 UTC with milliseconds (any offset and fraction length accepted on
/// input); uuid = canonical lower-case text (either case accepted); binary = base64; json = any
/// JSON value, stored as its canonical text (no whitespace, object keys sorted); integer = a
/// 64-bit integer (a fraction or an out-of-range number is refused, `1.0` is accepted: JSON has one
/// number type); boolean = `true`/`false` only (not 0/1); null = no value, for optional attributes.
public enum RecordJSONCoding {
    /// A JSON value as the attribute's type (the model's one mapping, `AttributeValue.decode`);
    /// JSON null becomes `.null` (the caller decides whether the attribute may be null). Errors name
    /// `field` and say what was expected.
    public static func decodeValue(_ json: JSONValue, type: AttributeType, field: String) throws(FieldError) -> AttributeValue {
        do {
            return try AttributeValue.decode(json: json, type: type)
        } catch {
            let reason = error.reason.map { ", which is \($0)" } ?? ""
            throw FieldError(field: field, message: "expected \(error.expected), got \(describe(json))\(reason)")
        }
    }

    /// `decodeValue` for an attribute of `entity`, refusing a value the attribute cannot hold (an
    /// integer outside its width) or too long for the unique index that guards it
    /// (`EntityDescription.uniqueValueByteLimit`), on every store alike.
    public static func decodeValue(
        _ json: JSONValue, attribute: AttributeDescription, of entity: EntityDescription,
        field: String
    ) throws(FieldError) -> AttributeValue {
        let value = try decodeValue(json, type: attribute.type, field: field)
        if let problem = attribute.valueProblem(value) { throw FieldError(field: field, message: problem) }
        if let limit = entity.uniqueValueByteLimit(attribute) {
            let bytes: Int
            switch value {
            case .string(let text), .json(let text): bytes = text.utf8.count
            case .binary(let data): bytes = data.count
            default: bytes = 0
            }
            if bytes > limit {
                throw FieldError(
                    field: field, message: "a value of \(entity.name).\(attribute.name), which is unique, holds at most \(limit) bytes; this one holds \(bytes)"
                )
            }
        }
        return value
    }

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
        case .date, .uuid, .binary, .decimal:
            return try decodeValue(.string(text), type: type, field: field)
        case .json:
            do {
                return .json(try JSONValue(parsing: text).canonicalText)
            } catch {
                throw FieldError(field: field, message: "expected JSON text: \(error.description)")
            }
        }
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
        case .decimal(let decimal): writer.string(decimal.text)
        }
    }

    /// The JSON text of one value (for `ETag`-style uses and messages; records use `writeRecord`).
    public static func jsonText(_ value: AttributeValue) -> String {
        var writer = JSONWriter(capacity: 32)
        writeValue(value, to: &writer)
        return writer.string
    }

    /// Writes a stored record as the flat object (docs/architecture.md#records): `_id`, `_entity`, `_version`,
    /// then attributes and relationships in model order.
    ///
    /// - Parameters:
    ///   - attributes: one value per `entity.attributes`, same order.
    ///   - relationships: one value per `entity.relationships`, same order.
    public static func writeRecord(
        entity: EntityDescription, id: Int64, version: Int64,
        attributes: [AttributeValue], relationships: [RelationshipValue], listRoutes: [String?] = [],
        to writer: inout JSONWriter
    ) {
        precondition(attributes.count == entity.attributes.count, "\(entity.name): \(attributes.count) values for \(entity.attributes.count) attributes")
        precondition(
            relationships.count == entity.relationships.count, "\(entity.name): \(relationships.count) values for \(entity.relationships.count) relationships")
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
            writeRelationship(value, to: &writer)
        }
        writeLongLists(entity: entity, id: id, relationships: relationships, listRoutes: listRoutes, to: &writer)
        writer.endObject()
    }

    /// `_id`s a record lists inline per to-many relationship: a record of millions of links
    /// would otherwise be tens of megabytes of JSON on every read. Past it, `_lists` says how many
    /// there are and where to page through them all.
    public static let inlineListLimit = 1000

    /// A relationship as JSON: a to-one as its `_id` or null, a to-many as an array of `_id`s (the
    /// first `inlineListLimit` of them, in the relationship's order).
    static func writeRelationship(_ value: RelationshipValue, to writer: inout JSONWriter) {
        switch value {
        case .toOne(let target?): writer.integer(target)
        case .toOne(nil): writer.null()
        case .toMany(let targets):
            writer.beginArray()
            for target in targets.prefix(inlineListLimit) { writer.integer(target) }
            writer.endArray()
        }
    }

    /// After the relationships, for each to-many longer than `inlineListLimit`:
    /// `"_lists": {"items": {"count": 2790000, "inline": 1000, "all": "/items?note=42"}}`. `all`
    /// is the list route filtered by the inverse to-one (every link, paged, in `_id` order), or
    /// null when the inverse is a to-many or there is none (no filter can select them).
    /// Nothing is written for a record whose lists are all short.
    static func writeLongLists(
        entity: EntityDescription, id: Int64, relationships: some Collection<RelationshipValue>,
        listRoutes: [String?], to writer: inout JSONWriter
    ) {
        var started = false
        func write(_ name: String, count: Int, route: String?) {
            guard count > inlineListLimit else { return }
            if !started {
                writer.key("_lists")
                writer.beginObject()
                started = true
            }
            writer.key(name)
            writer.beginObject()
            writer.key("count"); writer.integer(Int64(count))
            writer.key("inline"); writer.integer(Int64(inlineListLimit))
            writer.key("all")
            if let route { writer.string(route + String(id)) } else { writer.null() }
            writer.endObject()
        }
        // The parts of a relationship declared into a hierarchy (next to each other) count
        // together under its field; no one list route selects them all.
        var pending: (name: String, count: Int)?
        for (offset, (relationship, value)) in zip(entity.relationships, relationships).enumerated() {
            guard case .toMany(let targets) = value else { continue }
            if relationship.isHierarchyPart {
                if let (name, count) = pending, name == relationship.fieldName {
                    pending = (name, count + targets.count)
                } else {
                    if let (name, count) = pending { write(name, count: count, route: nil) }
                    pending = (relationship.fieldName, targets.count)
                }
                continue
            }
            write(relationship.name, count: targets.count, route: offset < listRoutes.count ? listRoutes[offset] : nil)
        }
        if let (name, count) = pending { write(name, count: count, route: nil) }
        if started { writer.endObject() }
    }

    /// Per relationship of `entity`, the start of the list route that selects every object of a
    /// to-many (`/items?note=`, the `_id` to follow; `/orderitems?where.order=` when the inverse
    /// is named like a list control), or nil: a to-one, or a to-many whose inverse
    /// is not a to-one (no filter selects its objects).
    static func listRoutes(_ entity: EntityDescription, model: DataModel) -> [String?] {
        entity.relationships.map { relationship in
            guard relationship.isToMany, let inverse = model.inverse(of: relationship), !inverse.isToMany,
                let destination = model.entity(named: relationship.destination)
            else { return nil }
            return "/\(destination.collection)?\(RecordsController.percentEncoded(ListQuery.filterParameter(inverse.name)))="
        }
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

    /// A short rendering of what the client sent, for messages: scalars as written, containers by kind.
    static func describe(_ json: JSONValue) -> String {
        switch json {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number): return number.rounded(.towardZero) == number && abs(number) < 1e16 ? String(Int64(number)) : String(number)
        case .bigInteger(let text), .preciseNumber(let text): return text.count > 40 ? text.prefix(40) + "…" : text
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
