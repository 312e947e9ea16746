import Foundation

/// Maps a Core Data `<model>` element to the model file's JSON (docs/architecture.md#core-data-models), recording every
/// feature Cloner cannot represent as a refusal that names the entity and property.
///
/// Core Data writes optionality only when it is YES (absent means required), a to-one relationship
/// as `maxCount="1"` without `toMany`, and every user-info value as a string; the model file's
/// decoder reads strings for the clone-rule keys, so user info passes through as written.
struct CoreDataModelMapper {
    private(set) var refusals: [ModelProblem] = []

    /// Core Data's attribute types that Cloner stores as one of its own (docs/architecture.md#core-data-models).
    static let attributeTypes: [String: String] = [
        "Integer 16": "integer", "Integer 32": "integer", "Integer 64": "integer",
        "Double": "double", "Float": "double", "String": "string", "Boolean": "boolean",
        "Date": "date", "UUID": "uuid", "Binary": "binary", "URI": "string",
    ]

    static let deleteRules: [String: String] = ["Nullify": "nullify", "Cascade": "cascade", "Deny": "deny", "No Action": "noAction"]

    /// Seconds between the Unix epoch and Core Data's reference date (2001-01-01T00:00:00Z), for
    /// date defaults, which Xcode saves as `defaultDateTimeInterval` relative to the latter.
    static let referenceDateOffset: Double = 978_307_200

    mutating func map(_ model: XMLNode) -> JSONValue {
        let entities = model.children(named: "entity")
        let parents = Set(entities.compactMap { $0.attributes["parentEntity"] })
        var mapped: [JSONValue] = []
        for entity in entities {
            mapped.append(map(entity: entity, isParent: parents.contains(entity.attributes["name"] ?? "")))
        }
        return ["entities": .array(mapped)]
    }

    private mutating func refuse(_ entity: String?, _ property: String? = nil, _ message: String) {
        refusals.append(ModelProblem(entity: entity, property: property, message: message))
    }

    private mutating func map(entity node: XMLNode, isParent: Bool) -> JSONValue {
        let name = node.attributes["name"]
        var entity: [String: JSONValue] = [:]
        if let name {
            entity["name"] = .string(name)
            entity["collection"] = .string(name.lowercased() + "s")
        } else {
            refuse(nil, nil, "an <entity> without a name (line \(node.line))")
        }
        if let parent = node.attributes["parentEntity"] {
            refuse(
                name, nil, "entity inheritance (parent entity \(parent)) cannot be represented; flatten the entity into its own attributes and relationships")
        } else if isParent {
            refuse(name, nil, "entity inheritance (other entities name this one as their parent) cannot be represented")
        }
        var attributes: [JSONValue] = []
        var relationships: [JSONValue] = []
        var groups: [JSONValue] = []
        for child in node.children {
            switch child.name {
            case "attribute":
                if let attribute = map(attribute: child, entity: name) { attributes.append(attribute) }
            case "relationship":
                if let relationship = map(relationship: child, entity: name) { relationships.append(relationship) }
            case "fetchedProperty":
                refuse(name, child.attributes["name"], "fetched properties cannot be represented (a stored query, not stored data)")
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    groups.append(.array(constraint.children(named: "constraint").compactMap { $0.attributes["value"].map(JSONValue.string) }))
                }
            case "userInfo", "fetchIndex", "compoundIndexes":
                // Entity user info carries no clone rule; fetch indexes are a query-speed hint the
                // store decides for itself (it indexes every foreign key and unique attribute).
                break
            default:
                refuse(name, nil, "unknown element <\(child.name)> (line \(child.line))")
            }
        }
        // A constraint on one attribute is that attribute's `unique`; longer ones are groups.
        var unique: Set<String> = []
        var together: [JSONValue] = []
        for group in groups {
            if case .array(let names) = group, names.count == 1, case .string(let single) = names[0] {
                unique.insert(single)
            } else {
                together.append(group)
            }
        }
        if !unique.isEmpty {
            attributes = attributes.map { attribute in
                guard case .object(var fields) = attribute, case .string(let attributeName)? = fields["name"], unique.contains(attributeName) else {
                    return attribute
                }
                fields["unique"] = true
                return .object(fields)
            }
            let known = Set(attributes.compactMap { $0.objectValue?["name"]?.stringValue })
            for missing in unique.subtracting(known).sorted() {
                refuse(name, missing, "a uniqueness constraint names \(missing), which is not a stored attribute of the entity")
            }
        }
        entity["attributes"] = .array(attributes)
        entity["relationships"] = .array(relationships)
        if !together.isEmpty { entity["uniqueTogether"] = .array(together) }
        return .object(entity)
    }

    private mutating func map(attribute node: XMLNode, entity: String?) -> JSONValue? {
        let name = node.attributes["name"]
        // Transient attributes live in memory only: nothing to store or clone.
        if node.attributes["transient"] == "YES" { return nil }
        if node.attributes["derived"] == "YES" || node.attributes["derivationExpression"] != nil {
            refuse(entity, name, "derived attributes (computed by an expression) cannot be represented")
            return nil
        }
        let coreDataType = node.attributes["attributeType"] ?? "Undefined"
        guard let type = Self.attributeTypes[coreDataType] else {
            refuse(
                entity, name,
                "attribute type \(coreDataType) cannot be represented; the types Cloner stores are \(Self.attributeTypes.keys.sorted().joined(separator: ", "))"
            )
            return nil
        }
        var attribute: [String: JSONValue] = ["type": .string(type), "optional": .bool(node.attributes["optional"] == "YES")]
        if let name { attribute["name"] = .string(name) }
        if let defaultValue = defaultValue(of: node, type: type, entity: entity, name: name) { attribute["default"] = defaultValue }
        if let userInfo = userInfo(of: node) { attribute["userInfo"] = userInfo }
        if let renaming = node.attributes["elementID"], renaming != name {
            // Xcode's "Renaming ID" is the property's previous name: a rename, as `originalName`.
            attribute["originalName"] = .string(renaming)
        }
        return .object(attribute)
    }

    /// `defaultValueString` in the attribute's JSON form; a date's default is
    /// `defaultDateTimeInterval`. A value that does not parse is left to the decoder, which names it.
    private mutating func defaultValue(of node: XMLNode, type: String, entity: String?, name: String?) -> JSONValue? {
        if type == "date", let interval = node.attributes["defaultDateTimeInterval"] {
            guard let seconds = Double(interval) else { return .string(interval) }
            let date = Date(timeIntervalSince1970: seconds + Self.referenceDateOffset)
            return .string(RFC3339Timestamp.format(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded())))
        }
        guard let text = node.attributes["defaultValueString"] else { return nil }
        switch type {
        case "integer": return Int64(text).map(JSONValue.integer) ?? .string(text)
        case "double": return Double(text).map(JSONValue.double) ?? .string(text)
        case "boolean":
            switch text {
            case "YES", "true": return true
            case "NO", "false": return false
            default: return .string(text)
            }
        case "binary":
            refuse(entity, name, "a default value for binary data cannot be represented")
            return nil
        default: return .string(text)
        }
    }

    private mutating func map(relationship node: XMLNode, entity: String?) -> JSONValue? {
        let name = node.attributes["name"]
        if node.attributes["transient"] == "YES" { return nil }
        var relationship: [String: JSONValue] = [:]
        if let name { relationship["name"] = .string(name) }
        if let destination = node.attributes["destinationEntity"] { relationship["destination"] = .string(destination) }
        let toMany = node.attributes["toMany"] == "YES"
        relationship["toMany"] = .bool(toMany)
        if toMany { relationship["ordered"] = .bool(node.attributes["ordered"] == "YES") }
        relationship["optional"] = .bool(node.attributes["optional"] == "YES")
        if let inverse = node.attributes["inverseName"] { relationship["inverse"] = .string(inverse) }
        let rule = node.attributes["deletionRule"] ?? "Nullify"
        if let mapped = Self.deleteRules[rule] {
            relationship["deleteRule"] = .string(mapped)
        } else {
            refuse(entity, name, "deletion rule \(rule) is not one of Nullify, Cascade, Deny, No Action")
        }
        if let userInfo = userInfo(of: node) { relationship["userInfo"] = userInfo }
        return .object(relationship)
    }

    /// `<userInfo><entry key=".." value=".."/></userInfo>` as a string map.
    private func userInfo(of node: XMLNode) -> JSONValue? {
        guard let info = node.child(named: "userInfo") else { return nil }
        var entries: [String: JSONValue] = [:]
        for entry in info.children(named: "entry") {
            guard let key = entry.attributes["key"] else { continue }
            entries[key] = .string(entry.attributes["value"] ?? "")
        }
        return entries.isEmpty ? nil : .object(entries)
    }
}
