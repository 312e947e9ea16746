import ClonerClone
import ClonerModel
import ClonerStore
import Foundation

/// One import's write, a line at a time: the shared objects found by their natural key as their
/// reference lines come, each object line turned into its new row with the target's clone rules
/// and its links, handed to the store's `GraphRowWriter` (nil for a dry run, which only counts).
struct GraphImportPass {
    let options: GraphImportOptions
    let root: EntityDescription
    let copy: GraphCopyPlan
    let model: DataModel
    let writer: GraphRowWriter?
    let now: Date
    /// Attributes some `followParent` rule reads, by name.
    private let followed: Set<String>

    /// New ids by entity and document ref: object lines, and references created (`createMissing`).
    private var ids: [String: [Int64: Int64]] = [:]
    /// Existing objects the reference lines found.
    private var found: [String: [Int64: Int64]] = [:]
    /// Values of followed attributes, by entity and ref, for the objects whose lines name them as parent.
    private var followedValues: [String: [Int64: [String: AttributeValue]]] = [:]
    private var unmatched: [(reference: String, message: String)] = []
    private var createdCounts: [String: Int] = [:]
    private var linkedIDs: [String: Set<Int64>] = [:]
    /// False for a dry run, and from the first unmatched reference on (the import will be
    /// refused; the rest of the document is still read to list every one).
    private var writing: Bool

    init(importer: GraphImporter, model: DataModel, writer: GraphRowWriter?, now: Date) {
        self.options = importer.options
        self.root = importer.root
        self.copy = importer.plan.copy
        self.model = model
        self.writer = writer
        self.now = now
        self.writing = writer != nil
        var followed: Set<String> = []
        for rule in copy.attributeRules.values { if case .followParent(let attribute, _) = rule { followed.insert(attribute) } }
        self.followed = followed
    }

    private mutating func newID(_ entity: String, _ ref: Int64) throws -> Int64 {
        if let id = ids[entity]?[ref] { return id }
        let id = try writer?.newID(entity) ?? 0
        ids[entity, default: [:]][ref] = id
        return id
    }

    mutating func handle(
        _ line: GraphDocumentLines.Line, header: [String: GraphDocumentLines.HeaderEntity], check: GraphDocumentCheck,
        context: any StoreContext
    ) throws {
        switch line {
        case .header: return
        case .reference(let reference):
            waiting.append(reference)
            if waiting.count >= GraphImportPass.referenceBatch { try resolveWaiting(context: context) }
        case .object(let object):
            try resolveWaiting(context: context)
            try handle(object, header: header, check: check)
        case .end: try resolveWaiting(context: context)
        }
    }

    /// Reference lines wait for the next object line (a document lists a batch's references
    /// together, before the lines that name them), then are found together: one query per entity.
    static let referenceBatch = 500
    private var waiting: [GraphDocumentLines.ReferenceLine] = []

    private mutating func resolveWaiting(context: any StoreContext) throws {
        guard !waiting.isEmpty else { return }
        let references = waiting
        waiting = []
        var existing = [Int64?](repeating: nil, count: references.count)
        // By entity and key (the attributes a line's key names), the lines whose key can be
        // matched with `=`: no null, no binary value.
        var groups: [[String]: [Int]] = [:]
        for (index, reference) in references.enumerated() {
            guard let key = reference.key, !key.values.contains(where: { $0.isNull || $0.type == .binary }) else { continue }
            groups[[reference.entity.name] + key.keys.sorted(), default: []].append(index)
        }
        for (group, indices) in groups.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let entity = references[indices[0]].entity
            let key = group.dropFirst().map { entity.attribute(named: $0)! }
            let values = indices.map { index in key.map { references[index].key![$0.name]! } }
            for (place, id) in try context.idsByNaturalKey(entity: entity, key: key, values: values).enumerated() {
                existing[indices[place]] = id
            }
        }
        for (index, reference) in references.enumerated() {
            if existing[index] == nil, let key = reference.key, key.values.contains(where: { $0.isNull || $0.type == .binary }) {
                let predicates = key.sorted(by: { $0.key < $1.key }).map { FetchRequest.Equality($0.key, $0.value) }
                existing[index] = try context.fetchIDs(FetchRequest(entity: reference.entity.name, predicates: predicates, limit: 1)).first
            }
            try handle(reference, existing: existing[index])
        }
    }

    private mutating func handle(_ reference: GraphDocumentLines.ReferenceLine, existing: Int64?) throws {
        let name = reference.entity.name
        if let id = existing {
            found[name, default: [:]][reference.ref] = id
            linkedIDs[name, default: []].insert(id)
            return
        }
        if options.createMissing {
            createdCounts[name, default: 0] += 1
            guard writing, let writer else { return }
            try writer.insert(reference.entity, id: try newID(name, reference.ref), attributes: reference.attributes)
            return
        }
        writing = false
        let described = "\(name) \(reference.ref) (line \(reference.line))"
        if let key = reference.key {
            let values = key.sorted(by: { $0.key < $1.key }).map { "\($0.key) = \($0.value.jsonValue.canonicalText)" }.joined(separator: ", ")
            unmatched.append((described, "no \(name) with \(values) on the target"))
        } else {
            unmatched.append((described, "\(name) has no natural key (a unique attribute or uniqueTogether group) to find it by"))
        }
    }

    private mutating func handle(
        _ object: GraphDocumentLines.ObjectLine, header: [String: GraphDocumentLines.HeaderEntity], check: GraphDocumentCheck
    ) throws {
        let entity = object.entity
        // Left out by an exclusion, as a clone's walk would leave it (see `GraphDocumentCheck`).
        if check.isDropped(entity.name, object.ref) { return }
        createdCounts[entity.name, default: 0] += 1
        let plan = entityPlan(entity, header: header)
        let isRoot = entity.name == root.name && check.rootRef == object.ref
        var values: [String: AttributeValue] = [:]
        for (attribute, excluded, excludedAtRoot, givenRule) in plan.attributes {
            if excluded || (isRoot && excludedAtRoot) { continue }
            var rule = givenRule
            if case .followParent(let source, let otherwise) = rule {
                // A parent whose entity has `source` kept its value (see below); one whose
                // entity lacks it counts as no parent.
                if let parent = object.parent, let parentValues = followedValues[parent.entity]?[parent.ref], let value = parentValues[source] {
                    values[attribute.name] = value
                    continue
                }
                rule = otherwise
            }
            switch rule {
            // A clashing text is numbered as the row is written (`GraphRowWriter.numberClashes`).
            case .copy, .suffixed: if let value = object.attributes[attribute.name] { values[attribute.name] = value }
            case .blank, .followParent: break
            case .newUUID: values[attribute.name] = .uuid(UUID.random())
            case .cloneTime: values[attribute.name] = .date(now)
            }
        }
        if !plan.followed.isEmpty {
            var kept: [String: AttributeValue] = [:]
            for attribute in plan.followed { kept[attribute.name] = values[attribute.name] ?? attribute.blankValue }
            followedValues[entity.name, default: [:]][object.ref] = kept
        }
        guard writing, let writer else { return }
        let id = try newID(entity.name, object.ref)
        try writer.insert(entity, id: id, attributes: values)
        for (relationship, refs) in object.relationships {
            guard let relationshipPlan = plan.relationships[relationship.name] else { continue }
            if relationshipPlan.excluded || (isRoot && relationshipPlan.excludedAtRoot) { continue }
            var targets: [GraphRowWriter.Target] = []
            targets.reserveCapacity(refs.count)
            // A part of an ordered list declared into a hierarchy: each target's place in it.
            let listed = object.places[relationship.name]
            var places: [Int64]? = listed.map { _ in [] }
            places?.reserveCapacity(refs.count)
            var allInGraph = true
            for (offset, ref) in refs.enumerated() {
                let destination = relationship.destination
                if check.isDropped(destination, ref) { continue }
                let count = targets.count
                if check.isReference(destination, ref) {
                    allInGraph = false
                    if let existing = found[destination]?[ref] {
                        targets.append(.init(id: existing, isNew: false))
                    } else if let created = ids[destination]?[ref] {
                        targets.append(.init(id: created, isNew: true))
                    }
                } else {
                    // An object line, here or to come (the document's checks make sure it comes).
                    targets.append(.init(id: try newID(destination, ref), isNew: true))
                }
                if let listed, targets.count > count { places?.append(listed[offset] ?? Int64(offset)) }
            }
            // Both ends in the graph: the pair is written from one side only.
            if allInGraph && relationshipPlan.otherSideWrites { continue }
            guard !targets.isEmpty else { continue }
            try writer.link(relationship, from: id, to: targets, places: places)
        }
    }

    /// What the clone rules say for one entity, worked out at its first line (not per object).
    private struct EntityPlan {
        var attributes: [(attribute: AttributeDescription, excluded: Bool, excludedAtRoot: Bool, rule: AttributeCopyRule)]
        /// Its attributes some `followParent` rule reads (kept per object for its children).
        var followed: [AttributeDescription]
        var relationships: [String: RelationshipPlan]
    }

    private struct RelationshipPlan {
        var excluded: Bool
        var excludedAtRoot: Bool
        /// Of an inverse pair in the document, the other side is the one written (when both
        /// ends are in the graph).
        var otherSideWrites: Bool
    }

    private var entityPlans: [String: EntityPlan] = [:]

    /// The plans of every entity the header names, made before the first line: the writer then
    /// knows every attribute it numbers, and locks them all before it numbers any
    /// (`CopySuffixLock`), in the order a clone does.
    mutating func planEntities(of header: [String: GraphDocumentLines.HeaderEntity]) {
        for entity in header.values.map(\.target).sorted(by: { $0.name < $1.name }) { _ = entityPlan(entity, header: header) }
    }

    private mutating func entityPlan(_ entity: EntityDescription, header: [String: GraphDocumentLines.HeaderEntity]) -> EntityPlan {
        if let plan = entityPlans[entity.name] { return plan }
        let name = entity.name
        var relationships: [String: RelationshipPlan] = [:]
        for relationship in entity.relationships {
            var otherSideWrites = false
            // The header is by the document's names, which may be older than the target's.
            if let inverse = model.inverse(of: relationship), !relationship.isSelfInverse,
                header.values.contains(where: { $0.target.name == inverse.source && $0.relationships.values.contains { $0.name == inverse.name } })
            {
                otherSideWrites = !GraphImporter.writesPair(relationship, inverse)
            }
            relationships[relationship.name] = RelationshipPlan(
                excluded: copy.isExcludedEverywhere(name, relationship.name), excludedAtRoot: copy.excludedAtRoot.contains(relationship.name),
                otherSideWrites: otherSideWrites)
        }
        for attribute in entity.attributes where !copy.isExcludedEverywhere(name, attribute.name) {
            switch copy.rule(for: name, attribute.name) {
            case .suffixed(let suffix), .followParent(_, .suffixed(let suffix)):
                writer?.numberClashes(of: entity, attribute: attribute.name, suffix: suffix)
            default: break
            }
        }
        let plan = EntityPlan(
            attributes: entity.attributes.map {
                ($0, copy.isExcludedEverywhere(name, $0.name), copy.excludedAtRoot.contains($0.name), copy.rule(for: name, $0.name))
            },
            followed: entity.attributes.filter { followed.contains($0.name) }, relationships: relationships)
        entityPlans[name] = plan
        return plan
    }

    /// The answer, once every line has been handled: the rest written and checked, or the
    /// unmatched shared objects refused (a dry run reports them instead).
    mutating func finish(rootRef: Int64) throws -> GraphImportResult {
        if !unmatched.isEmpty && !options.dryRun { throw GraphImportError.unmatched(unmatched) }
        if let writer { _ = try writer.finish() }
        let linkedCounts = linkedIDs.compactMapValues { $0.isEmpty ? nil : $0.count }
        let newRoot = options.dryRun ? 0 : ids[root.name]?[rootRef] ?? 0
        let result = CloneResult(
            source: .init(entity: root.name, id: rootRef), clone: .init(entity: root.name, id: newRoot), clones: nil,
            created: createdCounts, linked: linkedCounts, ids: options.returnIDs && !options.dryRun ? ids : nil, copyIDs: nil,
            dryRun: options.dryRun)
        return GraphImportResult(result: result, conflicts: unmatched.map { "\($0.reference): \($0.message)" })
    }
}
