import ClonerModel
import Foundation

/// Runs a `GraphCopyPlan` inside the caller's write transaction, on either database: the copy's
/// steps, in this one order, with what each database does differently asked of its
/// `GraphCopyBackend`. A failure anywhere leaves nothing behind (the transaction rolls back), and
/// the statements per copy grow with the model, never with the objects or the copies.
///
/// 1. the root exists; 2. each copy's root values, the per-copy `set` merged over the request's;
/// 3. the objects a `set` names exist; 4. the walk; 5. the size limit; 6. the map; 7. the linked
/// objects; 8. the writes (rows, join rows, followed attributes, the roots' lists), a unique
/// violation of many copies located in its copy; 9. the clones' ids and the result.
struct GraphCopier<Backend: GraphCopyBackend> {
    var backend: Backend
    let plan: GraphCopyPlan
    let schema: StoreSchema

    mutating func run(now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        precondition(plan.copies >= 1, "a clone makes at least one copy")
        precondition(
            plan.perCopyRootValues.isEmpty || plan.perCopyRootValues.count == plan.copies,
            "\(plan.perCopyRootValues.count) per-copy values for \(plan.copies) copies")
        // A run after a retried transaction starts the counters again.
        progress.setPlanned(0)
        progress.addWritten(-progress.written)
        guard let root = schema.model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        var copied = false
        defer { backend.end(copied: copied) }

        try backend.checkRoot(root, withWalk: plan.perCopyRootValues.isEmpty && plan.rootValues.isEmpty && plan.rootLinks.isEmpty)
        let rootValues: [[String: AttributeValue]] = (0..<plan.copies).map { copy in
            plan.perCopyRootValues.isEmpty ? plan.rootValues : plan.rootValues.merging(plan.perCopyRootValues[copy]) { _, own in own }
        }
        let setReferences = try checkedSetReferences(root: root, rootValues: rootValues)
        let rootLinks = try checkedRootLinks(root: root)
        try backend.prepare(root: root, rootValues: rootValues, now: now)

        let counts = try backend.walk()
        let total = counts.values.reduce(0, +)
        guard total <= plan.maximumObjects else { throw StoreError.tooLarge(objects: total, limit: plan.maximumObjects) }
        progress.setPlanned(total)
        try backend.fillMap(counts: counts)
        try backend.link(setReferences: setReferences, rootLinks: rootLinks)
        do {
            try backend.write(root: root, rootLinks: rootLinks, counts: counts, progress: progress)
        } catch let error as StoreError where !plan.dryRun && (plan.copies > 1 || !plan.perCopyRootValues.isEmpty) {
            throw try locatedInCopy(error)
        }
        let finished = try backend.finish(counts: counts)
        let suffixedValues = plan.dryRun ? try backend.suffixPreview(counts: counts) : [:]
        let clashes = plan.dryRun ? try backend.repeatedValues(counts: counts) : []
        copied = true

        let entities = schema.model.entities
        let name = { (tag: Int) in entities[tag].name }
        return GraphCopyResult(
            cloneIDs: finished.cloneIDs,
            created: Dictionary(uniqueKeysWithValues: counts.map { (name($0.key), $0.value) }),
            linked: Dictionary(uniqueKeysWithValues: finished.linked.map { (name($0.key), $0.value) }),
            ids: finished.ids, suffixedValues: suffixedValues, clashes: clashes)
    }

    /// A unique violation of a copy of many copies (or of per-copy values), said with the first
    /// copy (0-based) that repeats a value.
    private mutating func locatedInCopy(_ error: StoreError) throws -> StoreError {
        let clash: (entity: String, attributes: [String])
        switch error {
        case let .uniqueViolation(entity, attribute): clash = (entity, [attribute])
        case let .uniqueTogetherViolation(entity, attributes): clash = (entity, attributes)
        default: return error
        }
        guard let copy = try backend.firstClashingCopy(entity: clash.entity, attributes: clash.attributes) else { return error }
        return .inCopy(index: copy, error: error)
    }

    /// The to-ones the roots' values name, per relationship with its distinct ids, each checked
    /// to exist (one query per relationship, however many copies name it); a missing one is named
    /// by the request field that gave it (`set.template`, or `copies[3].set.template`).
    private mutating func checkedSetReferences(root: EntityDescription, rootValues: [[String: AttributeValue]]) throws -> [GraphCopyReference] {
        var references: [GraphCopyReference] = []
        for name in Set(rootValues.flatMap(\.keys)).sorted() {
            guard let relationship = root.relationship(named: name) else { continue }
            var ids: [Int64] = []
            var seen: Set<Int64> = []
            for values in rootValues {
                if case .integer(let id)? = values[name], seen.insert(id).inserted { ids.append(id) }
            }
            guard !ids.isEmpty else { continue }
            let destination = relationship.destination
            let existing = try backend.existing(ids, of: destination)
            if let missing = ids.first(where: { !existing.contains($0) }) {
                let copy = plan.perCopyRootValues.firstIndex { $0[name] == .integer(missing) }
                throw StoreError.missingRootLink(relationship: name, copy: copy, message: "no \(destination) with _id \(missing)")
            }
            references.append((relationship, ids))
        }
        return references
    }

    /// The to-manys the plan sets on the roots, by relationship name, each checked to exist.
    private mutating func checkedRootLinks(root: EntityDescription) throws -> [GraphCopyReference] {
        let rootLinks = plan.rootLinks.sorted(by: { $0.key < $1.key }).map {
            (relationship: root.relationship(named: $0.key)!, ids: $0.value)
        }
        for link in rootLinks where !link.ids.isEmpty {
            let destination = link.relationship.destination
            if try backend.existing(link.ids, of: destination).count != link.ids.count {
                throw StoreError.missingRootLink(relationship: link.relationship.name, copy: nil, message: "lists an _id that is not a \(destination)")
            }
        }
        return rootLinks
    }
}
