import ClonerModel

/// The existing objects a save's relationship edits link, looked up before any edit is applied:
/// one query per destination entity for the whole change set, where checking each edited object
/// on its own cost a query per object and relationship. An object the same save inserts needs no
/// look: it exists.
struct LinkableObjects {
    private let found: [String: Set<Int64>]

    init(
        _ edits: [(relationship: RelationshipDescription, edit: ChangeSet.RelationshipEdit)],
        lookingUp existing: (_ entity: String, _ ids: [Int64]) throws -> Set<Int64>
    ) throws {
        var wanted: [String: Set<Int64>] = [:]
        for (relationship, edit) in edits {
            switch edit {
            case .toOne(.existing(let id)?): wanted[relationship.destination, default: []].insert(id)
            case .toOne: break
            case .toMany(let references):
                for case .existing(let id) in references { wanted[relationship.destination, default: []].insert(id) }
            }
        }
        var found: [String: Set<Int64>] = [:]
        for (entity, ids) in wanted { found[entity] = try existing(entity, ids.sorted()) }
        self.found = found
    }

    /// Throws `danglingReference` when `reference` names an existing object that is not there.
    func check(_ reference: ChangeSet.Reference, resolved id: Int64, _ entity: EntityDescription, _ relationship: RelationshipDescription) throws {
        guard case .existing = reference, found[relationship.destination]?.contains(id) != true else { return }
        throw StoreError.danglingReference(entity: entity.name, relationship: relationship.name, id: id)
    }
}
