import ClonerModel
import ClonerStore

/// Splitting the fields declared into a hierarchy (`hierarchyFields`) into their stored parts,
/// once the store has said which concrete entity holds each `_id`: one query per field, however
/// many objects the body names, inside the transaction that saves them.
extension RecordInput {
    /// One `_id` a field declared into a hierarchy links to, where the body names it.
    private struct HierarchyLink {
        /// `Comment.post`: the entity and field, one lookup for all its ids.
        var field: String
        var declaredDestination: String
        var concreteEntities: [String]
        var id: Int64
        var path: String
    }

    /// This input (and every nested one) with each field declared into a hierarchy written as its
    /// parts: an `_id` goes to the part of the entity that holds it, the other parts are emptied
    /// (a to-one) or given their share of the list (a to-many, each part in the body's order; an
    /// ordered one with each object's place in the whole list, `places`).
    /// An `_id` no concrete entity of the destination holds is a 422 naming the field.
    func resolvingHierarchyFields(in context: any StoreContext, model: DataModel) throws -> RecordInput {
        var links: [HierarchyLink] = []
        collectHierarchyLinks(model: model, into: &links)
        guard !links.isEmpty || hasHierarchyFields else { return self }
        var found: [String: [Int64: String]] = [:]
        var problems: [FieldError] = []
        for (field, group) in Dictionary(grouping: links, by: \.field).sorted(by: { $0.key < $1.key }) {
            let holders = try context.concreteEntities(ofIDs: Set(group.map(\.id)).sorted(), among: group[0].concreteEntities)
            found[field] = holders
            let missing = group.filter { holders[$0.id] == nil }
            guard !missing.isEmpty else { continue }
            // Only on the way to a 422: which other entity the client may have meant.
            let others = model.entities.map(\.name).filter { !group[0].concreteEntities.contains($0) }
            let elsewhere = try context.concreteEntities(ofIDs: Set(missing.map(\.id)).sorted(), among: others)
            for link in missing {
                let concrete = link.concreteEntities.joined(separator: " or ")
                let other = elsewhere[link.id].map { ", but a \($0) has that _id" } ?? ""
                problems.append(
                    FieldError(
                        field: link.path,
                        message: "\(link.field): no \(link.declaredDestination) with _id \(link.id): it is no \(concrete)\(other)"))
            }
        }
        guard problems.isEmpty else { throw Problem.validationFailed(problems.sorted { $0.field < $1.field }) }
        return applying(found, model: model)
    }

    private var hasHierarchyFields: Bool {
        if !hierarchyFields.isEmpty { return true }
        return relationships.values.contains { value in
            switch value {
            case .toOne(.new(let nested)?): return nested.hasHierarchyFields
            case .toMany(let references): return references.contains { if case .new(let nested) = $0 { nested.hasHierarchyFields } else { false } }
            default: return false
            }
        }
    }

    private func collectHierarchyLinks(model: DataModel, into links: inout [HierarchyLink]) {
        for value in relationships.values {
            switch value {
            case .toOne(.new(let nested)?): nested.collectHierarchyLinks(model: model, into: &links)
            case .toMany(let references):
                for case .new(let nested) in references { nested.collectHierarchyLinks(model: model, into: &links) }
            default: break
            }
        }
        guard !hierarchyFields.isEmpty, let entity = model.entity(named: entity) else { return }
        for (field, value) in hierarchyFields {
            let parts = entity.relationshipParts(ofField: field)
            let declared = Self.declaredRelationship(parts)
            let references: [(HierarchyReference, String)]
            switch value {
            case .toOne(let reference?): references = [(reference, fieldPath(field))]
            case .toOne(nil): references = []
            case .toMany(let list): references = list.enumerated().map { ($1, "\(fieldPath(field))[\($0)]") }
            }
            for (reference, path) in references {
                switch reference {
                case .existing(let id):
                    links.append(
                        HierarchyLink(
                            field: "\(entity.name).\(field)", declaredDestination: declared.destination, concreteEntities: parts.map(\.destination),
                            id: id, path: path))
                case .new(let nested): nested.collectHierarchyLinks(model: model, into: &links)
                }
            }
        }
    }

    private func applying(_ found: [String: [Int64: String]], model: DataModel) -> RecordInput {
        var resolved = self
        for (name, value) in relationships {
            switch value {
            case .toOne(.new(let nested)?): resolved.relationships[name] = .toOne(.new(nested.applying(found, model: model)))
            case .toMany(let references):
                resolved.relationships[name] = .toMany(
                    references.map { if case .new(let nested) = $0 { .new(nested.applying(found, model: model)) } else { $0 } })
            default: break
            }
        }
        guard !hierarchyFields.isEmpty, let entity = model.entity(named: entity) else { return resolved }
        for (field, value) in hierarchyFields {
            let holders = found["\(entity.name).\(field)"] ?? [:]
            func concrete(_ reference: HierarchyReference) -> (entity: String, reference: Reference) {
                switch reference {
                case .existing(let id): return (holders[id] ?? "", .existing(id))
                case .new(let nested): return (nested.entity, .new(nested.applying(found, model: model)))
                }
            }
            let linked: [(entity: String, reference: Reference)]
            switch value {
            case .toOne(let reference?): linked = [concrete(reference)]
            case .toOne(nil): linked = []
            case .toMany(let references): linked = references.map(concrete)
            }
            for part in entity.relationshipParts(ofField: field) {
                let share = linked.indices.filter { linked[$0].entity == part.destination }
                if case .toMany = value {
                    resolved.relationships[part.name] = .toMany(share.map { linked[$0].reference })
                    // Each part's rows keep their place in the declared list, so the parts read
                    // back merged in one order.
                    if part.isOrdered { resolved.places[part.name] = share.map(Int64.init) }
                } else {
                    resolved.relationships[part.name] = .toOne(share.first.map { linked[$0].reference })
                }
            }
        }
        resolved.hierarchyFields = [:]
        return resolved
    }
}
