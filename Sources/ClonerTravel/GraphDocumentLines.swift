import ClonerModel
import Foundation

/// Reads the lines of a `GraphFormat` document one at a time, mapped onto the target's model:
/// every line is checked on its own here (its JSON, its members, its values against the header's
/// types); what needs other lines (refs named twice, owners first, counts) is `GraphDocumentCheck`'s.
struct GraphDocumentLines {
    /// An entity of the document mapped onto the target, its properties by the document's names.
    struct HeaderEntity {
        var target: EntityDescription
        var attributes: [String: AttributeDescription] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        /// The document's natural key (attribute names of the document).
        var key: [String] = []
    }

    struct ObjectLine {
        var line: Int
        var entity: EntityDescription
        var ref: Int64
        /// The target's entity name (`targetName(ofDocumentEntity:)`).
        var parent: (entity: String, ref: Int64)?
        /// Target attribute names.
        var attributes: [String: AttributeValue]
        var relationships: [(relationship: RelationshipDescription, refs: [Int64])]
        /// For an ordered list declared into a hierarchy, by the target's relationship (a part),
        /// each ref's place in the declared list (nil where the exporting store held none).
        var places: [String: [Int64?]] = [:]
    }

    struct ReferenceLine {
        var line: Int
        var entity: EntityDescription
        var ref: Int64
        /// Target attribute names; nil when the document's entity has no natural key.
        var key: [String: AttributeValue]?
        var attributes: [String: AttributeValue]
    }

    enum Line {
        case header(rootRef: Int64)
        case object(ObjectLine)
        case reference(ReferenceLine)
        case end(objects: Int64, references: Int64)
    }

    let model: DataModel
    let root: EntityDescription
    /// `GraphImportOptions.maximumValueBytes`: the largest text or json value a line may bring.
    let maximumValueBytes: Int
    /// By the document's entity names, which are older than the target's when a model version
    /// renamed something since the export (`GraphDocumentNames`).
    private(set) var header: [String: HeaderEntity]?
    private var ended = false

    init(model: DataModel, root: EntityDescription, maximumValueBytes: Int = GraphImportOptions.defaultMaximumValueBytes) {
        self.model = model
        self.root = root
        self.maximumValueBytes = maximumValueBytes
    }

    /// Refuses a text or json value larger than a create could write: an import line may be far
    /// longer than a body, and what it stores is read back into every answer that lists it.
    private func checkSizes(_ values: [String: AttributeValue], line: Int, in field: String) throws {
        for (name, value) in values {
            let bytes: Int
            switch value {
            case .string(let text), .json(let text): bytes = text.utf8.count
            default: continue
            }
            guard bytes > maximumValueBytes else { continue }
            throw GraphImportError.valueTooLarge(line: line, field: "\(field).\(name)", bytes: bytes, limit: maximumValueBytes)
        }
    }

    func bad(_ line: Int, _ field: String, _ message: String) -> GraphImportError {
        .badLine(line: line, field: field, message: message, syntax: false)
    }

    mutating func read(line number: Int, _ bytes: ArraySlice<UInt8>) throws -> Line {
        // Most lines are object lines as the exporter writes them: read straight from the bytes.
        // Any other line, or one the scanner is not sure of, is read below, which names what is wrong.
        if let header, !ended, let object = GraphObjectLineScanner.scan(bytes, line: number, header: header) {
            try checkSizes(object.attributes, line: number, in: "attributes")
            return .object(object)
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(bytes))
        } catch {
            throw GraphImportError.badLine(line: number, field: "", message: "not JSON: \(error.reason) at column \(error.column)", syntax: true)
        }
        guard case .object(let members) = value else { throw bad(number, "", "expected a JSON object") }
        guard case .string(let kind)? = members["kind"] else { throw bad(number, "kind", "expected header, object, reference or end") }
        if ended { throw bad(number, "", "a line after the end line") }
        if header == nil {
            guard kind == "header" else { throw bad(number, "kind", "the first line must be the header, not \(kind)") }
            return try readHeader(members, line: number)
        }
        switch kind {
        case "object":
            let object = try readObject(members, line: number)
            try checkSizes(object.attributes, line: number, in: "attributes")
            return .object(object)
        case "reference":
            let reference = try readReference(members, line: number)
            try checkSizes(reference.attributes, line: number, in: "attributes")
            try checkSizes(reference.key ?? [:], line: number, in: "key")
            return .reference(reference)
        case "end":
            let objects = try ref(members["objects"], line: number, field: "objects")
            let references = try ref(members["references"], line: number, field: "references")
            ended = true
            return .end(objects: objects, references: references)
        case "header": throw bad(number, "kind", "a second header")
        default: throw bad(number, "kind", "expected object, reference or end, got \(kind)")
        }
    }

    private mutating func readHeader(_ members: [String: JSONValue], line: Int) throws -> Line {
        guard members["format"] == .string(GraphFormat.name) else { throw bad(line, "format", "expected \"\(GraphFormat.name)\"") }
        guard members["version"] == .integer(GraphFormat.version) else {
            throw bad(line, "version", "this service reads version \(GraphFormat.version) documents")
        }
        guard case .object(let rootMembers)? = members["root"], case .string(let rootEntity)? = rootMembers["entity"],
            case .integer(let ref)? = rootMembers["ref"]
        else { throw bad(line, "root", "expected {\"entity\": name, \"ref\": integer}") }
        guard case .object(let entities)? = members["entities"] else { throw bad(line, "entities", "expected an object") }
        let names = GraphDocumentNames(model: model)
        var mapped: [String: HeaderEntity] = [:]
        var differences: [(property: String, message: String)] = []
        // The document's name of each target entity mapped so far: two names may not become one.
        var documentNames: [String: String] = [:]
        for (name, description) in entities.sorted(by: { $0.key < $1.key }) {
            guard case .object(let fields) = description, case .object(let attributes)? = fields["attributes"],
                case .object(let relationships)? = fields["relationships"]
            else {
                throw bad(line, "entities.\(name)", "expected {\"attributes\": {...}, \"relationships\": {...}, \"key\": ...}")
            }
            let target: EntityDescription
            switch names.entity(name) {
            case .found(let entity): target = entity
            case .missing:
                differences.append((name, "the target model has no entity \(name)"))
                continue
            case .ambiguous(let claimants):
                differences.append(
                    (
                        name,
                        "entities \(GraphDocumentNames.list(claimants)) of the target have the same Renaming ID \(name): the document's \(name) could be either"
                    ))
                continue
            }
            if let other = documentNames.updateValue(name, forKey: target.name) {
                differences.append((name, "the document's \(other) and \(name) are both the target's \(target.name)"))
                continue
            }
            var entity = HeaderEntity(target: target)
            try mapAttributes(attributes, of: name, into: &entity, names: names, line: line, differences: &differences)
            try mapRelationships(relationships, of: name, into: &entity, names: names, line: line, differences: &differences)
            if case .array(let key)? = fields["key"] {
                entity.key = key.compactMap(\.stringValue)
            }
            mapped[name] = entity
        }
        if !differences.isEmpty { throw GraphImportError.modelDifferences(differences) }
        let rootTarget: String
        if case .found(let entity) = names.entity(rootEntity) { rootTarget = entity.name } else { rootTarget = rootEntity }
        guard rootTarget == root.name else { throw GraphImportError.wrongCollection(expected: root.name, found: rootEntity) }
        header = mapped
        return .header(rootRef: ref)
    }

    /// The header's attributes of the document's entity `name`, each mapped onto the target's
    /// attribute of that name or renamed from it (`GraphDocumentNames`) and of the same type.
    private func mapAttributes(
        _ attributes: [String: JSONValue], of name: String, into entity: inout HeaderEntity, names: GraphDocumentNames, line: Int,
        differences: inout [(property: String, message: String)]
    ) throws {
        let target = entity.target
        var documentNames: [String: String] = [:]
        for (attributeName, typeValue) in attributes.sorted(by: { $0.key < $1.key }) {
            guard case .string(let typeName) = typeValue, let type = AttributeType(rawValue: typeName) else {
                throw bad(line, "entities.\(name).attributes.\(attributeName)", "expected an attribute type")
            }
            let property = "\(name).\(attributeName)"
            let attribute: AttributeDescription
            switch names.attribute(attributeName, of: target) {
            case .found(let found): attribute = found
            case .missing:
                differences.append((property, "the target's \(target.name) has no attribute \(attributeName)"))
                continue
            case .ambiguous(let claimants):
                differences.append(
                    (
                        property,
                        "attributes \(GraphDocumentNames.list(claimants)) of the target's \(target.name) have the same original name \(attributeName): the document's \(attributeName) could be either"
                    ))
                continue
            }
            guard attribute.type == type else {
                differences.append((property, "a \(type.rawValue) in the document, a \(attribute.type.rawValue) on the target"))
                continue
            }
            if let other = documentNames.updateValue(attributeName, forKey: attribute.name) {
                differences.append((property, "the document's \(name).\(other) and \(property) are both the target's \(target.name).\(attribute.name)"))
                continue
            }
            entity.attributes[attributeName] = attribute
        }
    }

    /// The header's relationships of the document's entity `name`, each mapped onto the target's
    /// relationship of that name or renamed from it (`GraphDocumentNames`), to the same
    /// (perhaps renamed) destination with the same cardinality.
    private func mapRelationships(
        _ relationships: [String: JSONValue], of name: String, into entity: inout HeaderEntity, names: GraphDocumentNames, line: Int,
        differences: inout [(property: String, message: String)]
    ) throws {
        let target = entity.target
        var documentNames: [String: String] = [:]
        for (relationshipName, shape) in relationships.sorted(by: { $0.key < $1.key }) {
            guard case .object(let shapeFields) = shape, case .string(let destination)? = shapeFields["destination"],
                case .bool(let toMany)? = shapeFields["toMany"]
            else {
                throw bad(line, "entities.\(name).relationships.\(relationshipName)", "expected {\"destination\": name, \"toMany\": bool}")
            }
            let property = "\(name).\(relationshipName)"
            let relationship: RelationshipDescription
            switch names.relationship(relationshipName, of: target) {
            case .found(let found): relationship = found
            case .missing:
                differences.append((property, "the target's \(target.name) has no relationship \(relationshipName)"))
                continue
            case .ambiguous(let claimants):
                differences.append(
                    (
                        property,
                        "relationships \(GraphDocumentNames.list(claimants)) of the target's \(target.name) have the same Renaming ID \(relationshipName): the document's \(relationshipName) could be either"
                    ))
                continue
            }
            var destinationTarget = destination
            var destinationNote = ""
            switch names.entity(destination) {
            case .found(let renamed): destinationTarget = renamed.name
            case .ambiguous(let claimants): destinationNote = " (which could be the target's \(GraphDocumentNames.list(claimants, joinedBy: "or")))"
            case .missing: break
            }
            guard relationship.destination == destinationTarget, relationship.isToMany == toMany else {
                differences.append(
                    (
                        property,
                        "a \(toMany ? "to-many" : "to-one") to \(destination)\(destinationNote) in the document, a \(relationship.isToMany ? "to-many" : "to-one") to \(relationship.destination) on the target"
                    ))
                continue
            }
            if let other = documentNames.updateValue(relationshipName, forKey: relationship.name) {
                differences.append((property, "the document's \(name).\(other) and \(property) are both the target's \(relationship.qualifiedName)"))
                continue
            }
            entity.relationships[relationshipName] = relationship
        }
    }

    /// The target's name of an entity the document names (as the header mapped it): the lines
    /// after the header speak of the target's entities. A name the header lacks stays as it is,
    /// for the checks to refuse.
    func targetName(ofDocumentEntity name: String) -> String {
        header?[name]?.target.name ?? name
    }

    private func headerEntity(_ members: [String: JSONValue], line: Int) throws -> HeaderEntity {
        guard case .string(let name)? = members["entity"] else { throw bad(line, "entity", "expected an entity name") }
        guard let entity = header?[name] else { throw bad(line, "entity", "\(name) is not among the header's entities") }
        return entity
    }

    private func attributes(_ value: JSONValue?, of entity: HeaderEntity, line: Int) throws -> [String: AttributeValue] {
        guard case .object(let members)? = value else { throw bad(line, "attributes", "expected an object") }
        var values: [String: AttributeValue] = [:]
        for (name, json) in members {
            guard let attribute = entity.attributes[name] else {
                throw bad(line, "attributes.\(name)", "\(entity.target.name).\(name) is not among the header's attributes")
            }
            let value: AttributeValue
            do {
                value = try AttributeValue.decode(json: json, type: attribute.type)
            } catch {
                throw bad(line, "attributes.\(name)", "expected \(error.expected)\(error.reason.map { ": \($0)" } ?? "")")
            }
            if let problem = attribute.valueProblem(value) { throw bad(line, "attributes.\(name)", problem) }
            values[attribute.name] = value
        }
        return values
    }

    private func ref(_ value: JSONValue?, line: Int, field: String = "ref") throws -> Int64 {
        switch value {
        case .integer(let ref)?: return ref
        case .bigInteger(let text)?: throw bad(line, field, "\(text.prefix(40)) is out of range: expected a 64-bit integer")
        default: throw bad(line, field, "expected an integer")
        }
    }

    /// The entity and ref of an object or reference line, before the rest of it is read (a ref
    /// named twice is refused first).
    private func identity(_ members: [String: JSONValue], line: Int) throws -> (HeaderEntity, Int64) {
        (try headerEntity(members, line: line), try ref(members["ref"], line: line))
    }

    private func readObject(_ members: [String: JSONValue], line: Int) throws -> ObjectLine {
        let (entity, ref) = try identity(members, line: line)
        let name = entity.target.name
        var parent: (entity: String, ref: Int64)?
        switch members["parent"] {
        case .null?, nil: parent = nil
        case .object(let fields)?:
            guard case .string(let parentEntity)? = fields["entity"], case .integer(let parentRef)? = fields["ref"] else {
                throw bad(line, "parent", "expected {\"entity\": name, \"ref\": integer} or null")
            }
            parent = (targetName(ofDocumentEntity: parentEntity), parentRef)
        default: throw bad(line, "parent", "expected {\"entity\": name, \"ref\": integer} or null")
        }
        let values = try attributes(members["attributes"], of: entity, line: line)
        guard case .object(let links)? = members["relationships"] else { throw bad(line, "relationships", "expected an object") }
        var relationships: [(relationship: RelationshipDescription, refs: [Int64])] = []
        for (linkName, value) in links.sorted(by: { $0.key < $1.key }) {
            guard let relationship = entity.relationships[linkName] else {
                throw bad(line, "relationships.\(linkName)", "\(name).\(linkName) is not among the header's relationships")
            }
            switch (relationship.isToMany, value) {
            case (false, .null): continue
            case (false, .integer(let target)): relationships.append((relationship, [target]))
            case (true, .array(let list)):
                var targets: [Int64] = []
                targets.reserveCapacity(list.count)
                for item in list {
                    guard case .integer(let target) = item else { throw bad(line, "relationships.\(linkName)", "expected a list of integers") }
                    targets.append(target)
                }
                if !targets.isEmpty { relationships.append((relationship, targets)) }
            default:
                throw bad(line, "relationships.\(linkName)", relationship.isToMany ? "expected a list of integers" : "expected an integer or null")
            }
        }
        // What the object was cloned from in the exporting store (docs/architecture.md#lineage):
        // checked, not imported — the import's objects are clones of nothing the target holds.
        if let member = members["clonedFrom"] {
            guard case .object(let fields) = member, fields.count == 2, case .string? = fields["entity"],
                case .integer(let source)? = fields["id"], source > 0
            else { throw bad(line, "clonedFrom", "expected {\"entity\": name, \"id\": a positive integer} or no member") }
        }
        for key in members.keys where !["kind", "entity", "ref", "parent", "attributes", "relationships", "places", "clonedFrom"].contains(key) {
            throw bad(line, key, "not a member of an object line")
        }
        var object = ObjectLine(line: line, entity: entity.target, ref: ref, parent: parent, attributes: values, relationships: relationships)
        if let member = members["places"] { object.places = try places(member, of: relationships, in: entity, line: line) }
        return object
    }

    /// An object line's `places`: per ordered to-many it lists, the place of each of its refs in
    /// the list declared into a hierarchy that it is a part of, an integer or null apiece (kept
    /// only where the target's relationship is ordered).
    private func places(
        _ member: JSONValue, of relationships: [(relationship: RelationshipDescription, refs: [Int64])], in entity: HeaderEntity, line: Int
    ) throws -> [String: [Int64?]] {
        guard case .object(let lists) = member else { throw bad(line, "places", "expected an object of lists") }
        var places: [String: [Int64?]] = [:]
        for (linkName, value) in lists {
            let field = "places.\(linkName)"
            guard let relationship = entity.relationships[linkName], relationship.isToMany else {
                throw bad(line, field, "\(entity.target.name).\(linkName) is no to-many among the header's relationships")
            }
            let count = relationships.first { $0.relationship.name == relationship.name }?.refs.count ?? 0
            guard case .array(let list) = value, list.count == count else {
                throw bad(line, field, "expected a list of \(count) places, one per ref in relationships.\(linkName)")
            }
            let read = try list.map { item -> Int64? in
                switch item {
                case .integer(let place): return place
                case .null: return nil
                default: throw bad(line, field, "expected integers or null")
                }
            }
            // A list the target keeps unordered takes the refs as a set.
            if relationship.isOrdered { places[relationship.name] = read }
        }
        return places
    }

    private func readReference(_ members: [String: JSONValue], line: Int) throws -> ReferenceLine {
        let (entity, ref) = try identity(members, line: line)
        let name = entity.target.name
        let values = try attributes(members["attributes"], of: entity, line: line)
        var key: [String: AttributeValue]?
        switch members["key"] {
        case .null?, nil: key = nil
        case .object(let fields)?:
            var mapped: [String: AttributeValue] = [:]
            for (keyName, json) in fields {
                guard let attribute = entity.attributes[keyName] else { throw bad(line, "key.\(keyName)", "not among the header's attributes of \(name)") }
                let value: AttributeValue
                do {
                    value = try AttributeValue.decode(json: json, type: attribute.type)
                } catch {
                    throw bad(line, "key.\(keyName)", "expected \(error.expected)")
                }
                if let problem = attribute.valueProblem(value) { throw bad(line, "key.\(keyName)", problem) }
                mapped[attribute.name] = value
            }
            key = mapped.isEmpty ? nil : mapped
        default: throw bad(line, "key", "expected an object or null")
        }
        return ReferenceLine(line: line, entity: entity.target, ref: ref, key: key, attributes: values)
    }
}
