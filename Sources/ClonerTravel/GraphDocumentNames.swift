import ClonerModel

/// The target's entity or property a name in a graph document stands for: the one of that name,
/// or else the one renamed from it — so a document exported before a model version renamed
/// something still imports after it.
///
/// One rule for all three, the store migrator's (`SchemaRenames`): a name the target still has is
/// that thing, never a rename (for a property, any current attribute or relationship of that
/// name: properties that swap names rename nothing); otherwise the one whose old name it is — an
/// entity's or relationship's Core Data Renaming ID (`renamingID`), an attribute's `originalName`.
/// Two that claim one old name leave the document's name ambiguous, and both are named.
struct GraphDocumentNames {
    enum Match<Target> {
        case found(Target)
        case missing
        /// The target's names of the things that claim the old name.
        case ambiguous([String])
    }

    let model: DataModel

    func entity(_ name: String) -> Match<EntityDescription> {
        if let entity = model.entity(named: name) { return .found(entity) }
        return Self.renamed(from: name, among: model.entities, oldName: \.renamingID, name: \.name)
    }

    func attribute(_ name: String, of entity: EntityDescription) -> Match<AttributeDescription> {
        if let attribute = entity.attribute(named: name) { return .found(attribute) }
        if entity.hasProperty(named: name) { return .missing }
        return Self.renamed(from: name, among: entity.attributes, oldName: \.originalName, name: \.name)
    }

    func relationship(_ name: String, of entity: EntityDescription) -> Match<RelationshipDescription> {
        if let relationship = entity.relationship(named: name) { return .found(relationship) }
        if entity.hasProperty(named: name) { return .missing }
        return Self.renamed(from: name, among: entity.relationships, oldName: \.renamingID, name: \.name)
    }

    private static func renamed<Target>(
        from old: String, among candidates: [Target], oldName: KeyPath<Target, String?>, name: KeyPath<Target, String>
    ) -> Match<Target> {
        let claimants = candidates.filter { $0[keyPath: oldName] == old }
        switch claimants.count {
        case 0: return .missing
        case 1: return .found(claimants[0])
        default: return .ambiguous(claimants.map { $0[keyPath: name] })
        }
    }

    /// How a refusal names the claimants of an ambiguous old name: `Memo and Journal`.
    static func list(_ names: [String], joinedBy conjunction: String = "and") -> String {
        names.count <= 2
            ? names.joined(separator: " \(conjunction) ") : names.dropLast().joined(separator: ", ") + " \(conjunction) " + (names.last ?? "")
    }
}
