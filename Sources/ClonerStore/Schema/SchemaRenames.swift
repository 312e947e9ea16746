import ClonerModel

/// The entities and relationships a new model renamed, read from their Core Data Renaming IDs
/// (`renamingID`) against the stored snapshot: a new entity whose Renaming ID names an entity the
/// store has and the new model no longer has is that entity renamed; a relationship whose Renaming
/// ID names a relationship of the same (perhaps renamed) entity that no current property of it is
/// named after is that relationship renamed. A Renaming ID that names something the new model
/// still has is only a version hash modifier, as in Core Data, and renames nothing: that is also
/// how properties that swap names are read, which the store cannot tell from a conflict.
///
/// The migrator plans against the old snapshot as renamed here (`renamed(_:)`), so a renamed entity
/// or relationship is a kept one and every other change to it is planned as usual.
struct SchemaRenames {
    /// New name by old name, for the renamed entities only.
    private(set) var entities: [String: String] = [:]
    /// New name by old name, per old entity name, for the renamed relationships only.
    private(set) var relationships: [String: [String: String]] = [:]
    /// Renames that cannot be applied, with the reason.
    private(set) var refusals: [String] = []
    /// Renamed relationships (`Entity.name`, new names) whose shape also changed: refused here,
    /// so the ordinary "changed" refusal does not repeat them.
    private(set) var refusedRelationships: Set<String> = []

    init(old: SchemaSnapshot, new: DataModel) {
        findEntityRenames(old: old, new: new)
        for entity in new.entities {
            guard let oldEntity = old.entity(named: oldName(ofEntity: entity.name)) else { continue }
            findRelationshipRenames(of: entity, old: oldEntity)
        }
        refuseChangedShapes(old: old, new: new)
    }

    var isEmpty: Bool { entities.isEmpty && relationships.isEmpty }

    func entityName(_ old: String) -> String { entities[old] ?? old }

    func relationshipName(_ old: String, of oldEntity: String) -> String { relationships[oldEntity]?[old] ?? old }

    /// The snapshot as if the store had always used the new names: what the rest of the plan
    /// compares the new model with.
    func renamed(_ snapshot: SchemaSnapshot) -> SchemaSnapshot {
        guard !isEmpty else { return snapshot }
        var renamed = snapshot
        for index in renamed.entities.indices {
            let oldEntity = renamed.entities[index].name
            renamed.entities[index].name = entityName(oldEntity)
            for relationshipIndex in renamed.entities[index].relationships.indices {
                var relationship = renamed.entities[index].relationships[relationshipIndex]
                relationship.name = relationshipName(relationship.name, of: oldEntity)
                relationship.inverse = relationship.inverse.map { relationshipName($0, of: relationship.destination) }
                relationship.destination = entityName(relationship.destination)
                renamed.entities[index].relationships[relationshipIndex] = relationship
            }
        }
        return renamed
    }

    // MARK: - finding them

    private func oldName(ofEntity name: String) -> String {
        entities.first { $0.value == name }?.key ?? name
    }

    private mutating func findEntityRenames(old: SchemaSnapshot, new: DataModel) {
        var claims: [String: [String]] = [:]
        for entity in new.entities {
            guard let renamingID = entity.renamingID, renamingID != entity.name, new.entity(named: renamingID) == nil,
                old.entity(named: renamingID) != nil
            else { continue }
            claims[renamingID, default: []].append(entity.name)
        }
        for (oldName, claimants) in claims.sorted(by: { $0.key < $1.key }) {
            guard claimants.count == 1, let newName = claimants.first else {
                refusals.append(
                    "entities \(Self.list(claimants)) have the same Renaming ID \(oldName); only one of them can be the store's \(oldName) renamed")
                continue
            }
            // SQLite compares table names ignoring case: the new name must be free in the store.
            if let taken = old.entities.first(where: { $0.name.lowercased() == newName.lowercased() }) {
                refusals.append(
                    "entity \(newName): renamed from \(oldName) (Renaming ID), but the store still has an entity \(taken.name); remove it in one model version and rename \(oldName) in the next"
                )
                continue
            }
            entities[oldName] = newName
        }
    }

    private mutating func findRelationshipRenames(of entity: EntityDescription, old: SchemaSnapshot.Entity) {
        var claims: [String: [String]] = [:]
        for relationship in entity.relationships {
            guard let renamingID = relationship.renamingID, renamingID != relationship.name, !entity.hasProperty(named: renamingID),
                old.relationships.contains(where: { $0.name == renamingID })
            else { continue }
            claims[renamingID, default: []].append(relationship.name)
        }
        let oldProperties = old.attributes.map(\.name) + old.relationships.map(\.name)
        for (oldName, claimants) in claims.sorted(by: { $0.key < $1.key }) {
            guard claimants.count == 1, let newName = claimants.first else {
                let names = claimants.map { "\(entity.name).\($0)" }
                refusals.append(
                    "relationships \(Self.list(names)) have the same Renaming ID \(oldName); only one of them can be the store's \(old.name).\(oldName) renamed"
                )
                continue
            }
            if let taken = oldProperties.first(where: { $0.lowercased() == newName.lowercased() }) {
                refusals.append(
                    "\(entity.name).\(newName): renamed from \(old.name).\(oldName) (Renaming ID), but the store still has \(old.name).\(taken); remove it in one model version and rename \(oldName) in the next"
                )
                continue
            }
            relationships[old.name, default: [:]][oldName] = newName
        }
    }

    /// A rename keeps the links only when they mean the same after it: the same destination, the
    /// same cardinality and order, the same inverse (each under its new name).
    private mutating func refuseChangedShapes(old: SchemaSnapshot, new: DataModel) {
        for (oldEntity, renamed) in relationships.sorted(by: { $0.key < $1.key }) {
            guard let before = old.entity(named: oldEntity), let after = new.entity(named: entityName(oldEntity)) else { continue }
            for (oldName, newName) in renamed.sorted(by: { $0.key < $1.key }) {
                guard let was = before.relationships.first(where: { $0.name == oldName }), let now = after.relationship(named: newName) else {
                    continue
                }
                let destination = entityName(was.destination)
                let inverse = was.inverse.map { relationshipName($0, of: was.destination) }
                guard destination != now.destination || was.toMany != now.isToMany || was.ordered != now.isOrdered || inverse != now.inverseName
                else { continue }
                refusedRelationships.insert(now.qualifiedName)
                refusals.append(
                    "\(now.qualifiedName): renamed from \(oldEntity).\(oldName) (Renaming ID), but its destination, cardinality, order or inverse changed too; existing links cannot be converted safely (rename it in one model version, change it in the next)"
                )
            }
        }
    }

    private static func list(_ names: [String]) -> String {
        names.count == 2 ? "\(names[0]) and \(names[1])" : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
