import Foundation

/// Maps a Core Data `<model>` element to the model file's JSON (docs/architecture.md#core-data-models), recording every
/// feature Cloner cannot represent as a refusal that names the entity and property.
///
/// Core Data writes optionality only when it is YES (absent means required), a to-one relationship
/// as `maxCount="1"` without `toMany`, and every user-info value as a string; the model file's
/// decoder reads strings for the clone-rule keys, so user info passes through as written. Each
/// element's line is kept in `sourceMap`, so later problems are reported in the XML's terms.
struct CoreDataModelMapper {
    private(set) var refusals: [ModelProblem] = []
    private(set) var sourceMap: CoreDataSourceMap

    init(contentsPath: String) {
        sourceMap = CoreDataSourceMap(contentsPath: contentsPath)
    }

    /// Core Data's attribute types that Cloner stores as one of its own (docs/architecture.md#core-data-models).
    static let attributeTypes: [String: String] = [
        "Integer 16": "integer", "Integer 32": "integer", "Integer 64": "integer",
        "Double": "double", "Float": "double", "String": "string", "Boolean": "boolean",
        "Date": "date", "UUID": "uuid", "Binary": "binary", "URI": "string", "Decimal": "decimal",
        // The value transformer runs in the app; what reaches the store is the archive's bytes,
        // which Cloner keeps and copies as they are.
        "Transformable": "binary",
    ]

    /// The width of each Core Data integer type: the store keeps 64 bits, the model the app's range.
    static let integerWidths: [String: Int64] = ["Integer 16": 16, "Integer 32": 32]

    /// The entity user-info key naming the entity's collection, as the model file's `collection`.
    static let collectionUserInfoKey = "collection"

    static let deleteRules: [String: String] = ["Nullify": "nullify", "Cascade": "cascade", "Deny": "deny", "No Action": "noAction"]

    /// Seconds between the Unix epoch and Core Data's reference date (2001-01-01T00:00:00Z), for
    /// date defaults, which Xcode saves as `defaultDateTimeInterval` relative to the latter.
    static let referenceDateOffset: Double = 978_307_200

    mutating func map(_ model: XMLNode) -> JSONValue {
        let entities = model.children(named: "entity")
        var mapped: [JSONValue] = []
        // Configurations, fetch request templates and Xcode's diagram layout (`<elements>`) are
        // siblings of the entities that describe no stored data: they are not read.
        for (index, entity) in entities.enumerated() {
            let path = "entities[\(index)]"
            sourceMap.lines[path] = entity.line
            mapped.append(map(entity: entity, path: path))
        }
        return ["entities": .array(mapped)]
    }

    /// A refusal located at the element's line, as every problem of a Core Data model is.
    /// `field`: the inspector's label of what is refused, when it is one field of the element.
    private mutating func refuse(_ node: XMLNode, _ entity: String?, _ property: String? = nil, field: String? = nil, _ message: String) {
        let location = sourceMap.location(line: node.line) + (field.map { ", \($0)" } ?? "")
        var problem = ModelProblem(entity: entity, property: property, message: "\(message) (at \(location))")
        problem.line = node.line
        refusals.append(problem)
    }

    private mutating func map(entity node: XMLNode, path: String) -> JSONValue {
        let name = node.attributes["name"]
        var entity: [String: JSONValue] = [:]
        if let name {
            entity["name"] = .string(name)
        } else {
            refuse(node, nil, nil, "an <entity> without a name")
        }
        // Without a `collection` entry the model file's default names it (EntityDescription.defaultCollection).
        if case .string(let collection)? = userInfo(of: node)?.objectValue?[Self.collectionUserInfoKey] {
            entity["collection"] = .string(collection)
        }
        if let renaming = node.attributes["elementID"], renaming != name { entity["renamingID"] = .string(renaming) }
        // Inheritance as the model file spells it (`ModelDraft.resolveInheritance`).
        if let parent = node.attributes["parentEntity"] { entity["parent"] = .string(parent) }
        if node.attributes["isAbstract"] == "YES" { entity["abstract"] = .bool(true) }
        let propertyNames = Set(node.children.compactMap { $0.name == "attribute" || $0.name == "relationship" ? $0.attributes["name"] : nil })
        var attributes: [JSONValue] = []
        var relationships: [JSONValue] = []
        var groups: [JSONValue] = []
        for child in node.children {
            switch child.name {
            case "attribute":
                if let attribute = map(attribute: child, entity: name, propertyNames: propertyNames) {
                    sourceMap.lines["\(path).attributes[\(attributes.count)]"] = child.line
                    attributes.append(attribute)
                }
            case "relationship":
                if let relationship = map(relationship: child, entity: name) {
                    sourceMap.lines["\(path).relationships[\(relationships.count)]"] = child.line
                    relationships.append(relationship)
                }
            case "fetchedProperty":
                refuse(child, name, child.attributes["name"], "fetched properties cannot be represented (a stored query, not stored data)")
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    groups.append(.array(constraint.children(named: "constraint").compactMap { $0.attributes["value"].map(JSONValue.string) }))
                }
            case "userInfo", "fetchIndex", "compoundIndexes":
                // Entity user info carries no clone rule (only `collection`, read above); fetch indexes
                // are a query-speed hint the store decides for itself (it indexes every foreign key and
                // unique attribute).
                break
            default:
                refuse(child, name, nil, "unknown element <\(child.name)>")
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
                refuse(
                    node.child(named: "uniquenessConstraints") ?? node, name, missing,
                    "a uniqueness constraint names \(missing), which is not a stored attribute of the entity")
            }
        }
        entity["attributes"] = .array(attributes)
        entity["relationships"] = .array(relationships)
        if !together.isEmpty { entity["uniqueTogether"] = .array(together) }
        return .object(entity)
    }

    /// `propertyNames`: every property of the entity, which a Renaming ID must not name to be a rename.
    private mutating func map(attribute node: XMLNode, entity: String?, propertyNames: Set<String>) -> JSONValue? {
        let name = node.attributes["name"]
        // Transient attributes live in memory only: nothing to store or clone.
        if node.attributes["transient"] == "YES" { return nil }
        if node.attributes["derived"] == "YES" || node.attributes["derivationExpression"] != nil {
            refuse(node, entity, name, "derived attributes (computed by an expression) cannot be represented")
            return nil
        }
        let coreDataType = node.attributes["attributeType"] ?? "Undefined"
        guard let type = Self.attributeTypes[coreDataType] else {
            refuse(
                node, entity, name,
                "attribute type \(coreDataType) cannot be represented; the types Cloner stores are \(Self.attributeTypes.keys.sorted().joined(separator: ", "))"
            )
            return nil
        }
        var attribute: [String: JSONValue] = ["type": .string(type), "optional": .bool(node.attributes["optional"] == "YES")]
        if let name { attribute["name"] = .string(name) }
        if let bits = Self.integerWidths[coreDataType] { attribute["bits"] = .integer(bits) }
        if let defaultValue = defaultValue(of: node, type: type, entity: entity, name: name) { attribute["default"] = defaultValue }
        if let userInfo = userInfo(of: node) { attribute["userInfo"] = userInfo }
        if type == "string", let maxLength = node.attributes["maxValueString"] {
            // A String's Max Length is the bound `rebuild: suffix` keeps a copy's value within
            // (docs/architecture.md#unique-values-on-copy); a User Info `maxLength` says it too.
            var userInfo = attribute["userInfo"]?.objectValue ?? [:]
            if userInfo[CopySuffix.maxLengthKey] == nil { userInfo[CopySuffix.maxLengthKey] = .string(maxLength) }
            attribute["userInfo"] = .object(userInfo)
        }
        if let renaming = node.attributes["elementID"], renaming != name {
            // Xcode's "Renaming ID" is the property's previous name. It is a column rename
            // (`originalName`) only when no current property has that name: Core Data allows
            // properties to swap names, a rename the store's migrator cannot tell from a conflict.
            attribute["renamingID"] = .string(renaming)
            if !propertyNames.contains(renaming) { attribute["originalName"] = .string(renaming) }
        }
        return .object(attribute)
    }

    /// `defaultValueString` in the attribute's JSON form, read as momc reads it; a date's default is
    /// `defaultDateTimeInterval`. A number or flag that does not parse is refused here, in Xcode's
    /// terms; other values are left to the decoder, which names them (and refuses an integer outside
    /// the attribute's width).
    private mutating func defaultValue(of node: XMLNode, type: String, entity: String?, name: String?) -> JSONValue? {
        if type == "date", let interval = node.attributes["defaultDateTimeInterval"] {
            guard let seconds = Double(interval) else { return .string(interval) }
            let date = Date(timeIntervalSince1970: seconds + Self.referenceDateOffset)
            return .string(RFC3339Timestamp.format(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded())))
        }
        guard let text = node.attributes["defaultValueString"] else { return nil }
        switch type {
        case "integer":
            if let value = Int64(text) { return .integer(value) }
            if let flag = Self.flag(text) { return .integer(flag ? 1 : 0) }
            // Xcode leaves "0.0" when an attribute's type changes from Double; momc keeps the
            // integer part (toward zero), and so does Cloner: "2.5" is 2.
            if let number = Double(text), let whole = Int64(exactly: number.rounded(.towardZero)) { return .integer(whole) }
            refuse(node, entity, name, field: "Default Value", "default value \"\(text)\" is not a whole number (nor YES or NO)")
            return nil
        case "double":
            if let number = Double(text) { return .double(number) }
            refuse(node, entity, name, field: "Default Value", "default value \"\(text)\" is not a number")
            return nil
        case "decimal":
            // Kept as the digits Xcode saved ("12.50"), never through a double.
            do {
                return .string(try ExactDecimal(parsing: text).text)
            } catch {
                refuse(node, entity, name, field: "Default Value", "default value \"\(text)\" is \(error.reason)")
                return nil
            }
        case "boolean":
            if let flag = Self.flag(text) { return .bool(flag) }
            // A number, as momc reads one: zero ("0", "0.0") is false, anything else true.
            if let number = Double(text), !number.isNaN { return .bool(number != 0) }
            refuse(node, entity, name, field: "Default Value", "default value \"\(text)\" is not YES, NO or a number")
            return nil
        case "binary":
            refuse(node, entity, name, "a default value for binary data cannot be represented")
            return nil
        default: return .string(text)
        }
    }

    /// YES/NO as Xcode writes a flag, and true/false.
    private static func flag(_ text: String) -> Bool? {
        switch text {
        case "YES", "true": return true
        case "NO", "false": return false
        default: return nil
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
        if toMany { relationship.merge(Self.counts(node)) { $1 } }
        relationship["optional"] = .bool(node.attributes["optional"] == "YES")
        if let inverse = node.attributes["inverseName"] { relationship["inverse"] = .string(inverse) }
        let rule = node.attributes["deletionRule"] ?? "Nullify"
        if let mapped = Self.deleteRules[rule] {
            relationship["deleteRule"] = .string(mapped)
        } else {
            refuse(node, entity, name, "deletion rule \(rule) is not one of Nullify, Cascade, Deny, No Action")
        }
        if let userInfo = userInfo(of: node) { relationship["userInfo"] = userInfo }
        // Kept as saved: the store's migrator reads it as a rename only when no current property
        // has that name, as an attribute's becomes `originalName` only then (swapped names).
        if let renaming = node.attributes["elementID"], renaming != name { relationship["renamingID"] = .string(renaming) }
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
