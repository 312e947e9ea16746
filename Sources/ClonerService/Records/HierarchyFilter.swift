import ClonerModel
import ClonerStore

/// A list's equality on a to-one declared into an inheritance hierarchy (`where.post=7`,
/// docs/architecture.md#relationships-into-a-hierarchy): the `_id` is one object of the
/// hierarchy's one `_id` space, so it filters on the part of the concrete entity that holds it,
/// found with one query as the page is read; `null` asks every part to be empty.
struct HierarchyFilter: Sendable {
    /// The field's stored parts, each a reference column on the listed entity.
    let parts: [RelationshipDescription]
    /// nil for `null`.
    let id: Int64?

    init(parts: [RelationshipDescription], text: String, parameter: String) throws(FieldError) {
        self.parts = parts
        if text == "null" {
            id = nil
            return
        }
        guard let id = Int64(text), id > 0 else {
            throw FieldError(field: parameter, message: "expected an _id (a positive integer) or null, got \(text)")
        }
        self.id = id
    }

    /// The predicates on the parts: the holder's part equal to the `_id` (the first part's when
    /// no concrete entity holds it, which no row can reference), or every part null.
    func predicates(in context: any StoreContext) throws -> [FetchRequest.Equality] {
        guard let id else { return parts.map { FetchRequest.Equality($0.name, .null) } }
        let holder = try context.concreteEntities(ofIDs: [id], among: parts.map(\.destination))[id]
        let part = parts.first { $0.destination == holder } ?? parts[0]
        return [FetchRequest.Equality(part.name, .integer(id))]
    }
}

extension RecordsController {
    /// The parts of `field` when it is a to-one declared into a hierarchy whose every part is a
    /// reference column of `entity` (what a list can filter on); nil otherwise.
    func filterableParts(_ entity: EntityDescription, field: String) -> [RelationshipDescription]? {
        let parts = entity.relationshipParts(ofField: field)
        guard !parts.isEmpty, !parts[0].isToMany else { return nil }
        for part in parts {
            guard case .foreignKeyOnSource = store.schema.storage(of: part) else { return nil }
        }
        return parts
    }
}
