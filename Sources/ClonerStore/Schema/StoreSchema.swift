import ClonerModel
import Foundation

/// How a `DataModel` maps onto SQLite: a table per entity (`_id`, `_version`, a column per
/// attribute, reference and position columns), join tables, and where each relationship lives.
/// Computed once per model; every SQL statement the store and the clone engine build reads from it.
public struct StoreSchema: Sendable {
    public let model: DataModel
    /// Reference columns, per entity whose table holds them, in model order.
    public let foreignKeys: [String: [ForeignKeyDescription]]
    public let joinTables: [JoinTableDescription]
    private let storageByRelationship: [String: RelationshipStorage]

    public init(model: DataModel) {
        self.model = model
        var foreignKeys: [String: [ForeignKeyDescription]] = [:]
        var joinTables: [JoinTableDescription] = []
        var storage: [String: RelationshipStorage] = [:]

        for entity in model.entities {
            for relationship in entity.relationships {
                let inverse = model.inverse(of: relationship)
                let key = relationship.qualifiedName
                switch (relationship.isToMany, inverse) {
                case (false, nil):
                    storage[key] = .foreignKeyOnSource(column: relationship.name)
                    foreignKeys[entity.name, default: []].append(
                        ForeignKeyDescription(
                            entity: entity.name, column: relationship.name, referencedEntity: relationship.destination,
                            isUnique: false, positionColumn: nil, relationship: relationship.name,
                            inverseRelationship: nil, isRequired: !relationship.isOptional))
                case (false, let inverse?) where inverse.isToMany:
                    let position = inverse.isOrdered ? StoreSchema.positionColumn(for: relationship.name) : nil
                    storage[key] = .foreignKeyOnSource(column: relationship.name)
                    foreignKeys[entity.name, default: []].append(
                        ForeignKeyDescription(
                            entity: entity.name, column: relationship.name, referencedEntity: relationship.destination,
                            isUnique: false, positionColumn: position, relationship: relationship.name,
                            inverseRelationship: inverse.name, isRequired: !relationship.isOptional))
                case (false, let inverse?):
                    // One-to-one: the side with the smaller qualified name holds the column.
                    if key <= inverse.qualifiedName {
                        storage[key] = .foreignKeyOnSource(column: relationship.name)
                        foreignKeys[entity.name, default: []].append(
                            ForeignKeyDescription(
                                entity: entity.name, column: relationship.name, referencedEntity: relationship.destination,
                                isUnique: true, positionColumn: nil, relationship: relationship.name,
                                inverseRelationship: inverse.name, isRequired: !relationship.isOptional))
                    } else {
                        storage[key] = .foreignKeyOnDestination(column: inverse.name, positionColumn: nil)
                    }
                case (true, let inverse?) where !inverse.isToMany:
                    let position = relationship.isOrdered ? StoreSchema.positionColumn(for: inverse.name) : nil
                    storage[key] = .foreignKeyOnDestination(column: inverse.name, positionColumn: position)
                case (true, nil):
                    let table = StoreSchema.joinTableName(entity: entity.name, relationship: relationship.name)
                    let position = relationship.isOrdered ? "src_pos" : nil
                    joinTables.append(
                        JoinTableDescription(
                            name: table, sourceEntity: entity.name, destinationEntity: relationship.destination,
                            sourcePositionColumn: position, destinationPositionColumn: nil, isManyToMany: false))
                    storage[key] = .joinTable(table: table, sourceColumn: "src", destinationColumn: "dst", positionColumn: position)
                case (true, let inverse?):
                    // Many-to-many: one table, named after the side with the smaller qualified name.
                    let canonical = key <= inverse.qualifiedName
                    let owner = canonical ? relationship : inverse
                    let table = StoreSchema.joinTableName(entity: owner.source, relationship: owner.name)
                    if canonical {
                        joinTables.append(
                            JoinTableDescription(
                                name: table, sourceEntity: entity.name, destinationEntity: relationship.destination,
                                sourcePositionColumn: relationship.isOrdered ? "src_pos" : nil,
                                destinationPositionColumn: inverse.isOrdered && key != inverse.qualifiedName ? "dst_pos" : nil,
                                isManyToMany: true))
                        storage[key] = .joinTable(
                            table: table, sourceColumn: "src", destinationColumn: "dst",
                            positionColumn: relationship.isOrdered ? "src_pos" : nil)
                    } else {
                        storage[key] = .joinTable(
                            table: table, sourceColumn: "dst", destinationColumn: "src",
                            positionColumn: relationship.isOrdered ? "dst_pos" : nil)
                    }
                }
            }
        }
        self.foreignKeys = foreignKeys
        self.joinTables = joinTables
        self.storageByRelationship = storage
    }

    public func storage(of relationship: RelationshipDescription) -> RelationshipStorage {
        guard let storage = storageByRelationship[relationship.qualifiedName] else {
            preconditionFailure("\(relationship.qualifiedName) is not part of this schema's model")
        }
        return storage
    }

    /// Every reference column whose values are `_id`s of `entity`, wherever it lives.
    public func foreignKeys(referencing entity: String) -> [ForeignKeyDescription] {
        model.entities.flatMap { foreignKeys[$0.name] ?? [] }.filter { $0.referencedEntity == entity }
    }

    public func joinTables(touching entity: String) -> [JoinTableDescription] {
        joinTables.filter { $0.sourceEntity == entity || $0.destinationEntity == entity }
    }

    /// Position columns start with `_`, which model names may not, so they can never collide.
    public static func positionColumn(for foreignKeyColumn: String) -> String { "_pos_\(foreignKeyColumn)" }

    public static func joinTableName(entity: String, relationship: String) -> String { "_rel_\(entity)_\(relationship)" }

    /// The store's own bookkeeping table.
    public static let metadataTable = "_cloner_meta"

    /// The largest `_id` a store takes from a document that moves a whole store: 2^53 − 1, the
    /// largest integer every JSON client reads exactly. A store's sequences hand out ids above the
    /// highest it holds, in blocks, so a document that set them near Int64.max would leave every
    /// later create and clone failing.
    public static let largestID: Int64 = (1 << 53) - 1
}

/// Quotes an identifier for SQL. Model names are validated to letters, digits and `_`, so this is
/// about reserved words (`index`, `order`), not injection — but it is applied everywhere anyway.
/// Foundation's `replacingOccurrences` goes through `NSString`, which is slow on this hot path (a
/// clone's root check quotes a name on every request), so a name without a quote (every model name) skips it.
@inline(__always)
package func quoted(_ identifier: String) -> String {
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
