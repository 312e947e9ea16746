import ClonerModel
import ClonerStore

/// One `_id` a create or PATCH body links to an existing object, where the body names it
/// (`tags[1]`, `items[2].note`), so a link to a missing object is refused naming that place.
struct RecordLink: Sendable, Hashable {
    /// The relationship the `_id` is a value of; its destination is the entity it must exist in.
    let relationship: RelationshipDescription
    let id: Int64
    /// The path into the body, as `FieldError.field` names it.
    let field: String

    /// Every link of `links` whose object does not exist, as the field errors of a 422: one query
    /// per relationship, however many ids it lists.
    static func missing(_ links: [RecordLink], in context: any StoreContext) throws -> [FieldError] {
        let byRelationship = Dictionary(grouping: links) { $0.relationship.qualifiedName }
        var problems: [FieldError] = []
        for name in byRelationship.keys.sorted() {
            let group = byRelationship[name]!
            let destination = group[0].relationship.destination
            let found = try context.existingIDs(entity: destination, ids: Set(group.map(\.id)).sorted())
            for link in group where !found.contains(link.id) {
                problems.append(FieldError(field: link.field, message: "\(name): no \(destination) with _id \(link.id)"))
            }
        }
        return problems
    }
}
