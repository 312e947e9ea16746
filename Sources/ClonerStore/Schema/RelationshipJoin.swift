import ClonerModel

/// A relationship seen as a join: rows of `table` where `sourceColumn` equals a source `_id`
/// give the destination `_id`s in `destinationColumn`. All three storages fit this one shape,
/// which lets traversals (clone walks, delete cascades, batch faulting) be written once.
public struct RelationshipJoin: Sendable, Hashable {
    public let table: String
    public let sourceColumn: String
    public let destinationColumn: String
    /// Orders the destinations of one source, when the relationship is ordered.
    public let positionColumn: String?

    /// The condition to add so rows with no destination are skipped (a NULL reference column).
    func nonNullCondition(alias: String) -> String {
        "\(alias).\(quoted(destinationColumn)) IS NOT NULL"
    }
}

extension StoreSchema {
    public func join(for relationship: RelationshipDescription) -> RelationshipJoin {
        switch storage(of: relationship) {
        case .foreignKeyOnSource(let column):
            return RelationshipJoin(table: relationship.source, sourceColumn: "_id", destinationColumn: column, positionColumn: nil)
        case let .foreignKeyOnDestination(column, position):
            return RelationshipJoin(table: relationship.destination, sourceColumn: column, destinationColumn: "_id", positionColumn: position)
        case let .joinTable(table, source, destination, position):
            return RelationshipJoin(table: table, sourceColumn: source, destinationColumn: destination, positionColumn: position)
        }
    }

    /// Index of an entity in the model, the compact tag traversals use for it in SQL.
    public func entityTag(_ name: String) -> Int {
        guard let index = model.entities.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("unknown entity \(name)")
        }
        return index
    }
}
