import ClonerModel
import ClonerStore

extension RecordInput {
    /// Flattens a decoded body (with nested objects to create) into one change set: every nested
    /// object becomes an insert, referenced by its index, so the whole graph is saved in one
    /// transaction. A nested object's link back to its parent is not set on the child: the parent's
    /// relationship and its inverse share one storage, so setting one side sets both.
    func changeSet(updating id: Int64? = nil, expectedVersion: Int64? = nil) -> ChangeSet {
        var changes = ChangeSet()
        if let id {
            var update = ChangeSet.Update(entity: entity, id: id, expectedVersion: expectedVersion, attributes: attributes)
            for (name, value) in relationships { update.relationships[name] = RecordInput.edit(value, into: &changes) }
            update.places = places
            changes.updates.append(update)
        } else {
            _ = RecordInput.insert(self, into: &changes)
        }
        return changes
    }

    private static func insert(_ input: RecordInput, into changes: inout ChangeSet) -> Int {
        let index = changes.inserts.count
        changes.inserts.append(ChangeSet.Insert(entity: input.entity, attributes: input.attributes))
        var edits: [String: ChangeSet.RelationshipEdit] = [:]
        for (name, value) in input.relationships where name != input.linkedToParentThrough {
            edits[name] = edit(value, into: &changes)
        }
        changes.inserts[index].relationships = edits
        changes.inserts[index].places = input.places.filter { name, _ in name != input.linkedToParentThrough }
        return index
    }

    private static func edit(_ value: RelationshipValue, into changes: inout ChangeSet) -> ChangeSet.RelationshipEdit {
        switch value {
        case .toOne(nil):
            return .toOne(nil)
        case .toOne(let reference?):
            return .toOne(resolve(reference, into: &changes))
        case .toMany(let references):
            return .toMany(references.map { resolve($0, into: &changes) })
        }
    }

    private static func resolve(_ reference: Reference, into changes: inout ChangeSet) -> ChangeSet.Reference {
        switch reference {
        case .existing(let id): return .existing(id)
        case .new(let nested): return .inserted(insert(nested, into: &changes))
        }
    }
}
