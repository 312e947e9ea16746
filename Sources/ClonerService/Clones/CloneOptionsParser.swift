import ClonerClone
import ClonerHTTP
import ClonerModel
import Foundation

/// The options of `POST /{collection}/{id}/clone` (docs/architecture.md#http-contract): reads the
/// body into a `CloneRequest`, naming every bad field at once. Knows nothing of how the clone runs.
struct CloneOptionsParser: Sendable {
    /// `maxObjectsPerClone`, `maxCopies` and `maxCloneSetBytes`, handed to every `CloneRequest`.
    let maximumObjects: Int
    let maximumCopies: Int
    let maximumSetBytes: Int
    /// `maxValuesPerRequest`: the body's JSON values, counted before it is parsed.
    let maximumValues: Int

    /// Parses the optional body `{"exclude": [...], "set": {...}, "copies": 3, "dryRun": false, "returnIds": false}`
    /// (`copies` may instead be a list of `{"set": {...}}`, one per copy; docs/architecture.md#many-copies).
    func cloneRequest(_ request: HTTPRequest, entity: EntityDescription, id: Int64) throws(Problem) -> CloneRequest {
        var clone = CloneRequest(
            entity: entity.name, id: id, maximumObjects: maximumObjects,
            maximumCopies: maximumCopies, maximumSetBytes: maximumSetBytes)
        guard !request.body.isEmpty else { return clone }
        try BodyObjectCount.check(request.body, maximumObjects: nil, maximumValues: maximumValues)
        let json: JSONValue
        do {
            json = try JSONValue(parsing: request.body)
        } catch {
            throw Problem.invalidJSON(error)
        }
        guard case .object(let members) = json else {
            throw Problem.validationFailed([
                FieldError(
                    field: FieldError.body,
                    message: "the request body must be a JSON object with exclude, set, copies, dryRun, returnIds, got \(RecordJSONCoding.describe(json))")
            ])
        }
        var errors: [FieldError] = []
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            switch (name, value) {
            case ("exclude", .array(let entries)):
                for (index, entry) in entries.enumerated() {
                    if case .string(let text) = entry {
                        clone.exclude.append(text)
                    } else {
                        errors.append(FieldError(field: "exclude[\(index)]", message: "expected a property name (string)"))
                    }
                }
            case ("set", .object(let values)):
                let parsed = CloneOptionsParser.setValues(values, entity: entity, prefix: "set.", errors: &errors)
                clone.set = parsed.values
                clone.setLinks = parsed.links
            case ("copies", .integer(let count)):
                // The range (1…maxCopies) is the plan's check, named `copies` there too.
                clone.copies = Int(clamping: count)
            case ("copies", .array(let entries)):
                guard !entries.isEmpty else {
                    errors.append(FieldError(field: "copies", message: "expected at least one {\"set\": {...}} entry"))
                    break
                }
                clone.copies = entries.count
                for (index, entry) in entries.enumerated() {
                    // `{}` is a copy with no overrides of its own.
                    guard case .object(let members) = entry else {
                        errors.append(FieldError(field: "copies[\(index)]", message: "expected {\"set\": {...}} or {}"))
                        continue
                    }
                    if let unknown = members.keys.sorted().first(where: { $0 != "set" }) {
                        errors.append(FieldError(field: "copies[\(index)].\(unknown)", message: "unknown member; a copy takes only set"))
                        continue
                    }
                    let values: [String: JSONValue]
                    switch members["set"] {
                    case nil: values = [:]
                    case .object(let given)?: values = given
                    case _?:
                        errors.append(FieldError(field: "copies[\(index)].set", message: "expected an object of property values"))
                        continue
                    }
                    let prefix = "copies[\(index)].set."
                    let parsed = CloneOptionsParser.setValues(values, entity: entity, prefix: prefix, errors: &errors)
                    for name in parsed.links.keys.sorted() {
                        errors.append(FieldError(field: prefix + name, message: "to-many links cannot differ per copy; set them in the request's own set"))
                    }
                    clone.copySets.append(parsed.values)
                }
            case ("dryRun", .bool(let flag)): clone.dryRun = flag
            case ("returnIds", .bool(let flag)): clone.returnIDs = flag
            case ("exclude", _): errors.append(FieldError(field: "exclude", message: "expected an array of property names"))
            case ("set", _): errors.append(FieldError(field: "set", message: "expected an object of property values"))
            case ("copies", _):
                errors.append(FieldError(field: "copies", message: "expected a positive integer, or a list of {\"set\": {...}} objects, one per copy"))
            case ("dryRun", _), ("returnIds", _): errors.append(FieldError(field: name, message: "expected true or false"))
            default: errors.append(FieldError(field: name, message: "unknown option; the options are exclude, set, copies, dryRun, returnIds"))
            }
        }
        guard errors.isEmpty else { throw Problem.validationFailed(errors) }
        return clone
    }

    /// A `set` object's values for `entity` (attributes and to-one `_id`s) and to-many links;
    /// each bad entry is an error naming `prefix` + the property (`set.name`, `copies[2].set.name`).
    static func setValues(
        _ values: [String: JSONValue], entity: EntityDescription, prefix: String,
        errors: inout [FieldError]
    ) -> (values: [String: AttributeValue], links: [String: [Int64]]) {
        var set: [String: AttributeValue] = [:]
        var links: [String: [Int64]] = [:]
        for (property, value) in values.sorted(by: { $0.key < $1.key }) {
            let field = prefix + property
            if let attribute = entity.attribute(named: property) {
                do {
                    set[property] = try RecordJSONCoding.decodeValue(value, attribute: attribute, of: entity, field: field)
                } catch {
                    errors.append(error)
                }
            } else if let relationship = entity.storedRelationships(ofField: property).first {
                // A field declared into an inheritance hierarchy takes its ids as any relationship
                // does; the store puts each in its concrete entity's part.
                switch (relationship.isToMany, value) {
                case (false, .integer(let target)): set[property] = .integer(target)
                case (false, .null): set[property] = .null
                case (false, _): errors.append(FieldError(field: field, message: "expected an _id (integer) or null"))
                case (true, .array(let entries)):
                    var ids: [Int64] = []
                    for entry in entries {
                        if case .integer(let target) = entry { ids.append(target) }
                    }
                    if ids.count == entries.count {
                        links[property] = ids
                    } else {
                        errors.append(FieldError(field: field, message: "expected an array of _id values"))
                    }
                case (true, _): errors.append(FieldError(field: field, message: "expected an array of _id values"))
                }
            } else {
                errors.append(FieldError(field: field, message: "\(entity.name) has no attribute or relationship named \(property)"))
            }
        }
        return (set, links)
    }
}
