import ClonerModel
import ClonerStore
import Foundation

/// Reads a `GraphFormat` document a line at a time and creates its graph on the target with new
/// ids, as a clone would (docs/architecture.md#graphs-that-travel): the target's clone rules
/// apply (rebuilt UUIDs and dates, `followParent`, exclusions), shared objects are found by their
/// natural key, and everything is written by one `save` inside the caller's write transaction —
/// all of it, or nothing.
///
/// Feed it bytes as they arrive (`feed`), then `finish`; every line is checked as it is read, so a
/// bad document is refused naming its line before anything is written. `run` then writes.
public struct GraphImporter: Sendable {
    public let options: GraphImportOptions
    let schema: StoreSchema
    let root: EntityDescription
    let plan: ClonePlan
    private var reader = GraphLineReader()

    /// A property of the document mapped onto the target.
    struct HeaderEntity {
        var target: EntityDescription
        var attributes: [String: AttributeDescription] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        /// The document's natural key (attribute names of the document).
        var key: [String] = []
    }

    struct PendingObject {
        var line: Int
        var entity: EntityDescription
        var ref: Int64
        var parent: (entity: String, ref: Int64)?
        /// Target attribute names.
        var attributes: [String: AttributeValue]
        var relationships: [(relationship: RelationshipDescription, refs: [Int64])]
    }

    struct PendingReference {
        var line: Int
        var entity: EntityDescription
        var ref: Int64
        /// Target attribute names; nil when the document's entity has no natural key.
        var key: [String: AttributeValue]?
        var attributes: [String: AttributeValue]
    }

    private var header: [String: HeaderEntity]?
    private var rootRef: Int64 = 0
    private var objects: [PendingObject] = []
    private var objectIndex: [String: [Int64: Int]] = [:]
    private var references: [PendingReference] = []
    private var referenceIndex: [String: [Int64: Int]] = [:]
    private var ended = false

    /// `collection`'s entity is the root entity the document must have. Throws `CloneError` for
    /// an `exclude` naming nothing.
    public init(schema: StoreSchema, root: EntityDescription, options: GraphImportOptions) throws(CloneError) {
        self.schema = schema
        self.root = root
        self.options = options
        self.plan = try ClonePlan(
            request: CloneRequest(
                entity: root.name, id: 1, exclude: options.exclude,
                maximumObjects: options.maximumObjects), schema: schema)
    }

    public mutating func feed(_ bytes: [UInt8]) throws {
        var reader = self.reader
        defer { self.reader = reader }
        try reader.feed(bytes) { number, line in try self.read(line: number, line) }
    }

    /// The end of the document: the last line, then the checks that need every line (every
    /// reference names a line, the end line is there).
    public mutating func finish() throws {
        var reader = self.reader
        try reader.finish { number, line in try self.read(line: number, line) }
        self.reader = reader
        guard header != nil else {
            throw GraphImportError.badLine(line: 1, field: "", message: "the document is empty: expected a header line", syntax: true)
        }
        guard ended else {
            throw GraphImportError.badLine(
                line: reader.lineNumber + 1, field: "",
                message: "the document ends without its end line: it was cut short", syntax: true)
        }
        guard objectIndex[root.name]?[rootRef] != nil else {
            throw GraphImportError.badLine(line: 1, field: "root", message: "no object line for the root \(root.name) \(rootRef)", syntax: false)
        }
        for object in objects {
            for (relationship, refs) in object.relationships {
                for ref in refs where objectIndex[relationship.destination]?[ref] == nil && referenceIndex[relationship.destination]?[ref] == nil {
                    throw GraphImportError.badLine(
                        line: object.line, field: "relationships.\(relationship.name)",
                        message: "names \(relationship.destination) \(ref), which no object or reference line of this document has", syntax: false)
                }
            }
        }
    }

    // MARK: Lines

    private mutating func read(line number: Int, _ bytes: ArraySlice<UInt8>) throws {
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
            try readHeader(members, line: number)
            return
        }
        switch kind {
        case "object": try readObject(members, line: number)
        case "reference": try readReference(members, line: number)
        case "end": try readEnd(members, line: number)
        case "header": throw bad(number, "kind", "a second header")
        default: throw bad(number, "kind", "expected object, reference or end, got \(kind)")
        }
    }

    private func bad(_ line: Int, _ field: String, _ message: String) -> GraphImportError {
        .badLine(line: line, field: field, message: message, syntax: false)
    }

    private mutating func readHeader(_ members: [String: JSONValue], line: Int) throws {
        guard members["format"] == .string(GraphFormat.name) else { throw bad(line, "format", "expected \"\(GraphFormat.name)\"") }
        guard members["version"] == .integer(GraphFormat.version) else {
            throw bad(line, "version", "this service reads version \(GraphFormat.version) documents")
        }
        guard case .object(let rootMembers)? = members["root"], case .string(let rootEntity)? = rootMembers["entity"],
            case .integer(let ref)? = rootMembers["ref"]
        else { throw bad(line, "root", "expected {\"entity\": name, \"ref\": integer}") }
        guard case .object(let entities)? = members["entities"] else { throw bad(line, "entities", "expected an object") }
        let model = schema.model
        var mapped: [String: HeaderEntity] = [:]
        var differences: [(property: String, message: String)] = []
        for (name, description) in entities.sorted(by: { $0.key < $1.key }) {
            guard case .object(let fields) = description, case .object(let attributes)? = fields["attributes"],
                case .object(let relationships)? = fields["relationships"]
            else {
                throw bad(line, "entities.\(name)", "expected {\"attributes\": {...}, \"relationships\": {...}, \"key\": ...}")
            }
            guard let target = model.entity(named: name) else {
                differences.append((name, "the target model has no entity \(name)"))
                continue
            }
            var entity = HeaderEntity(target: target)
            for (attributeName, typeValue) in attributes.sorted(by: { $0.key < $1.key }) {
                guard case .string(let typeName) = typeValue, let type = AttributeType(rawValue: typeName) else {
                    throw bad(line, "entities.\(name).attributes.\(attributeName)", "expected an attribute type")
                }
                guard let attribute = target.attribute(named: attributeName) ?? target.attributes.first(where: { $0.originalName == attributeName }) else {
                    differences.append(("\(name).\(attributeName)", "the target's \(name) has no attribute \(attributeName)"))
                    continue
                }
                guard attribute.type == type else {
                    differences.append(("\(name).\(attributeName)", "a \(type.rawValue) in the document, a \(attribute.type.rawValue) on the target"))
                    continue
                }
                entity.attributes[attributeName] = attribute
            }
            for (relationshipName, shape) in relationships.sorted(by: { $0.key < $1.key }) {
                guard case .object(let shapeFields) = shape, case .string(let destination)? = shapeFields["destination"],
                    case .bool(let toMany)? = shapeFields["toMany"]
                else {
                    throw bad(line, "entities.\(name).relationships.\(relationshipName)", "expected {\"destination\": name, \"toMany\": bool}")
                }
                guard let relationship = target.relationship(named: relationshipName) else {
                    differences.append(("\(name).\(relationshipName)", "the target's \(name) has no relationship \(relationshipName)"))
                    continue
                }
                guard relationship.destination == destination, relationship.isToMany == toMany else {
                    differences.append(
                        (
                            "\(name).\(relationshipName)",
                            "a \(toMany ? "to-many" : "to-one") to \(destination) in the document, a \(relationship.isToMany ? "to-many" : "to-one") to \(relationship.destination) on the target"
                        ))
                    continue
                }
                entity.relationships[relationshipName] = relationship
            }
            if case .array(let key)? = fields["key"] {
                entity.key = key.compactMap(\.stringValue)
            }
            mapped[name] = entity
        }
        if !differences.isEmpty { throw GraphImportError.modelDifferences(differences) }
        guard rootEntity == root.name else { throw GraphImportError.wrongCollection(expected: root.name, found: rootEntity) }
        header = mapped
        rootRef = ref
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
            do {
                values[attribute.name] = try AttributeValue.decode(json: json, type: attribute.type)
            } catch {
                throw bad(line, "attributes.\(name)", "expected \(error.expected)\(error.reason.map { ": \($0)" } ?? "")")
            }
        }
        return values
    }

    private func ref(_ value: JSONValue?, line: Int, field: String = "ref") throws -> Int64 {
        guard case .integer(let ref)? = value else { throw bad(line, field, "expected an integer") }
        return ref
    }

    private mutating func readObject(_ members: [String: JSONValue], line: Int) throws {
        let entity = try headerEntity(members, line: line)
        let ref = try ref(members["ref"], line: line)
        let name = entity.target.name
        guard objectIndex[name]?[ref] == nil, referenceIndex[name]?[ref] == nil else { throw bad(line, "ref", "\(name) \(ref) appears twice") }
        guard objects.count < options.maximumObjects else { throw CloneError.tooLarge(objects: objects.count + 1, limit: options.maximumObjects) }
        var parent: (entity: String, ref: Int64)?
        switch members["parent"] {
        case .null?, nil: parent = nil
        case .object(let fields)?:
            guard case .string(let parentEntity)? = fields["entity"], case .integer(let parentRef)? = fields["ref"] else {
                throw bad(line, "parent", "expected {\"entity\": name, \"ref\": integer} or null")
            }
            guard objectIndex[parentEntity]?[parentRef] != nil else {
                throw bad(line, "parent", "\(parentEntity) \(parentRef) has no object line before this one (owners come first)")
            }
            parent = (parentEntity, parentRef)
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
        for key in members.keys where !["kind", "entity", "ref", "parent", "attributes", "relationships"].contains(key) {
            throw bad(line, key, "not a member of an object line")
        }
        objectIndex[name, default: [:]][ref] = objects.count
        objects.append(PendingObject(line: line, entity: entity.target, ref: ref, parent: parent, attributes: values, relationships: relationships))
    }

    private mutating func readReference(_ members: [String: JSONValue], line: Int) throws {
        let entity = try headerEntity(members, line: line)
        let ref = try ref(members["ref"], line: line)
        let name = entity.target.name
        guard objectIndex[name]?[ref] == nil, referenceIndex[name]?[ref] == nil else { throw bad(line, "ref", "\(name) \(ref) appears twice") }
        let values = try attributes(members["attributes"], of: entity, line: line)
        var key: [String: AttributeValue]?
        switch members["key"] {
        case .null?, nil: key = nil
        case .object(let fields)?:
            var mapped: [String: AttributeValue] = [:]
            for (keyName, json) in fields {
                guard let attribute = entity.attributes[keyName] else { throw bad(line, "key.\(keyName)", "not among the header's attributes of \(name)") }
                do {
                    mapped[attribute.name] = try AttributeValue.decode(json: json, type: attribute.type)
                } catch {
                    throw bad(line, "key.\(keyName)", "expected \(error.expected)")
                }
            }
            key = mapped.isEmpty ? nil : mapped
        default: throw bad(line, "key", "expected an object or null")
        }
        referenceIndex[name, default: [:]][ref] = references.count
        references.append(PendingReference(line: line, entity: entity.target, ref: ref, key: key, attributes: values))
    }

    private mutating func readEnd(_ members: [String: JSONValue], line: Int) throws {
        let objectCount = try ref(members["objects"], line: line, field: "objects")
        let referenceCount = try ref(members["references"], line: line, field: "references")
        guard objectCount == objects.count else { throw bad(line, "objects", "says \(objectCount) objects; the document has \(objects.count)") }
        guard referenceCount == references.count else {
            throw bad(line, "references", "says \(referenceCount) references; the document has \(references.count)")
        }
        ended = true
    }

    // MARK: Writing

    /// Object lines read so far (for progress).
    public var objectCount: Int { objects.count }

    /// The objects a finished document creates at most: its object lines, and its reference lines
    /// in case they are created too (`createMissing`). A job's `planned` before it runs.
    public var plannedObjects: Int { objects.count + (options.createMissing ? references.count : 0) }

    /// Matches the shared objects, builds the inserts with the target's clone rules and saves them
    /// in `context`'s transaction (unless a dry run). Throws `GraphImportError.unmatched` listing
    /// every shared object the target lacks (unless `createMissing`).
    /// `progress` learns the objects planned once the inserts are built, and written once saved.
    public func run(in context: any StoreContext, now: Date, progress: GraphCopyProgress? = nil) throws -> GraphImportResult {
        precondition(ended, "run before finish")
        let header = self.header!
        let copy = plan.copy
        // Shared objects: one lookup per reference by its natural key.
        enum Target {
            case existing(Int64)
            case created(Int)
        }
        var targets: [Target?] = []
        targets.reserveCapacity(references.count)
        var unmatched: [(reference: String, message: String)] = []
        var created: [ChangeSet.Insert] = []
        var createdOf: [Int] = []
        for reference in references {
            var found: Int64?
            if let key = reference.key {
                let predicates = key.sorted(by: { $0.key < $1.key }).map { FetchRequest.Equality($0.key, $0.value) }
                found = try context.fetchIDs(FetchRequest(entity: reference.entity.name, predicates: predicates, limit: 1)).first
            }
            if let found {
                targets.append(.existing(found))
            } else if options.createMissing {
                targets.append(.created(created.count))
                createdOf.append(targets.count - 1)
                created.append(ChangeSet.Insert(entity: reference.entity.name, attributes: reference.attributes))
            } else {
                targets.append(nil)
                let name = "\(reference.entity.name) \(reference.ref) (line \(reference.line))"
                if let key = reference.key {
                    let described = key.sorted(by: { $0.key < $1.key }).map { "\($0.key) = \($0.value.jsonValue.canonicalText)" }.joined(separator: ", ")
                    unmatched.append((name, "no \(reference.entity.name) with \(described) on the target"))
                } else {
                    unmatched.append((name, "\(reference.entity.name) has no natural key (a unique attribute or uniqueTogether group) to find it by"))
                }
            }
        }
        if !unmatched.isEmpty && !options.dryRun { throw GraphImportError.unmatched(unmatched) }

        // Attributes some `followParent` rule reads: kept per object for its children.
        var followed: Set<String> = []
        for rule in copy.attributeRules.values { if case .followParent(let attribute, _) = rule { followed.insert(attribute) } }
        var followedValues: [[String: AttributeValue]] = Array(repeating: [:], count: followed.isEmpty ? 0 : objects.count)

        let base = created.count
        var inserts = created
        inserts.reserveCapacity(created.count + objects.count)
        for (index, object) in objects.enumerated() {
            let entity = object.entity
            let isRoot = entity.name == root.name && object.ref == rootRef
            var values: [String: AttributeValue] = [:]
            let parentIndex = object.parent.flatMap { objectIndex[$0.entity]?[$0.ref] }
            for attribute in entity.attributes {
                if copy.isExcludedEverywhere(entity.name, attribute.name) || (isRoot && copy.excludedAtRoot.contains(attribute.name)) { continue }
                var rule = copy.rule(for: entity.name, attribute.name)
                if case .followParent(let source, let otherwise) = rule {
                    if let parentIndex, objects[parentIndex].entity.attribute(named: source) != nil {
                        if let value = followedValues[parentIndex][source] { values[attribute.name] = value }
                        continue
                    }
                    rule = otherwise
                }
                switch rule {
                case .copy: if let value = object.attributes[attribute.name] { values[attribute.name] = value }
                case .blank, .followParent: break
                case .newUUID: values[attribute.name] = .uuid(UUID.random())
                case .cloneTime: values[attribute.name] = .date(now)
                }
            }
            if !followed.isEmpty {
                for name in followed where entity.attribute(named: name) != nil {
                    followedValues[index][name] = values[name] ?? entity.attribute(named: name)!.blankValue
                }
            }
            var edits: [String: ChangeSet.RelationshipEdit] = [:]
            for (relationship, refs) in object.relationships {
                if copy.isExcludedEverywhere(entity.name, relationship.name) || (isRoot && copy.excludedAtRoot.contains(relationship.name)) { continue }
                var references: [ChangeSet.Reference] = []
                var allInGraph = true
                for ref in refs {
                    if let target = objectIndex[relationship.destination]?[ref] {
                        references.append(.inserted(base + target))
                    } else if let reference = referenceIndex[relationship.destination]?[ref] {
                        allInGraph = false
                        switch targets[reference] {
                        case .existing(let id)?: references.append(.existing(id))
                        case .created(let createdIndex)?: references.append(.inserted(createdIndex))
                        case nil: continue
                        }
                    }
                }
                // Both ends in the graph: the pair is written from one side only.
                if allInGraph, let inverse = context.model.inverse(of: relationship), !relationship.isSelfInverse,
                    header[inverse.source]?.relationships[inverse.name] != nil,
                    !GraphImporter.writesPair(relationship, inverse)
                {
                    continue
                }
                guard !references.isEmpty else { continue }
                edits[relationship.name] = relationship.isToMany ? .toMany(references) : .toOne(references[0])
            }
            inserts.append(ChangeSet.Insert(entity: entity.name, attributes: values, relationships: edits))
        }

        var createdCounts: [String: Int] = [:]
        for insert in inserts { createdCounts[insert.entity, default: 0] += 1 }
        var linkedCounts: [String: Int] = [:]
        var linkedSeen: Set<String> = []
        for (index, reference) in references.enumerated() {
            if case .existing(let id)? = targets[index], linkedSeen.insert("\(reference.entity.name)#\(id)").inserted {
                linkedCounts[reference.entity.name, default: 0] += 1
            }
        }

        var newRoot: Int64 = 0
        var ids: [String: [Int64: Int64]]?
        progress?.setPlanned(inserts.count)
        if !options.dryRun {
            let saved = try context.save(ChangeSet(inserts: inserts))
            progress?.addWritten(inserts.count)
            newRoot = saved.insertedIDs[base + objectIndex[root.name]![rootRef]!]
            if options.returnIDs {
                var map: [String: [Int64: Int64]] = [:]
                for (index, object) in objects.enumerated() { map[object.entity.name, default: [:]][object.ref] = saved.insertedIDs[base + index] }
                for (createdIndex, referenceIndex) in createdOf.enumerated() {
                    map[references[referenceIndex].entity.name, default: [:]][references[referenceIndex].ref] = saved.insertedIDs[createdIndex]
                }
                ids = map
            }
        }
        let result = CloneResult(
            source: .init(entity: root.name, id: rootRef), clone: .init(entity: root.name, id: newRoot), clones: nil,
            created: createdCounts, linked: linkedCounts, ids: ids, copyIDs: nil, dryRun: options.dryRun)
        return GraphImportResult(result: result, conflicts: unmatched.map { "\($0.reference): \($0.message)" })
    }

    /// Of an inverse pair whose both ends are in the graph, whether `relationship` is the side an
    /// import writes: an ordered list (its order is the document's), else the to-many side (its
    /// children follow it, so the store writes the link with their rows), else the first by name.
    static func writesPair(_ relationship: RelationshipDescription, _ inverse: RelationshipDescription) -> Bool {
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        return relationship.qualifiedName < inverse.qualifiedName
    }
}
