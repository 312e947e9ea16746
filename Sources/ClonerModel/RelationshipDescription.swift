/// One relationship of an entity (docs/architecture.md#the-model-file). The fields after `cloneRule` are resolved once
/// when the `DataModel` is built, so the store and the clone engine never re-derive them.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    /// Name of the destination entity.
    public var destination: String
    public var isToMany: Bool
    public var isOrdered: Bool
    /// Name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    public var deleteRule: DeleteRule
    public var isOptional: Bool
    /// Core Data's Renaming ID as the model saved it; see `EntityDescription.renamingID`.
    public var renamingID: String?
    public var userInfo: [String: JSONValue]
    public var cloneRule: RelationshipCloneRule
    /// What the model declared, when this relationship is one stored part of a relationship into
    /// an inheritance hierarchy or the inverse of one (`RelationshipDeclaration`); nil otherwise.
    public var declaration: RelationshipDeclaration?

    /// Name of the entity that declares this relationship; set by `DataModel`.
    public internal(set) var source: String = ""
    /// Whether the inverse is to-many; set by `DataModel` (false when there is no inverse).
    public internal(set) var inverseIsToMany: Bool = false

    public init(
        name: String,
        destination: String,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        inverseName: String? = nil,
        deleteRule: DeleteRule = .nullify,
        isOptional: Bool = true,
        renamingID: String? = nil,
        userInfo: [String: JSONValue] = [:],
        cloneRule: RelationshipCloneRule = .default
    ) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverseName = inverseName
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.renamingID = renamingID
        self.userInfo = userInfo
        self.cloneRule = cloneRule
    }

    public var hasInverse: Bool { inverseName != nil }

    /// The API's field this relationship is stored for: its own name, or the declared one of which
    /// it is a part.
    public var fieldName: String { declaration?.name ?? name }

    /// Whether this is one stored part of a relationship declared into a hierarchy (its name is
    /// not the field's).
    public var isHierarchyPart: Bool { fieldName != name }

    /// A relationship that is its own inverse (`Person.spouse` ↔ `Person.spouse`, `Person.friends`):
    /// setting one side sets the other, so the store keeps both directions (docs/architecture.md#the-model-file).
    public var isSelfInverse: Bool { inverseName == name && destination == source }

    /// MOCloner's default ownership, overridable per relationship: the destinations are shared when
    /// the inverse is to-many (many-to-one, many-to-many), copied otherwise.
    public var ownership: RelationshipCloneRule.Ownership {
        cloneRule.ownershipOverride ?? (inverseIsToMany ? .share : .copy)
    }

    public var isOwned: Bool { ownership == .copy }

    /// "Entity.relationship", the form used in messages and qualified exclusions.
    public var qualifiedName: String { "\(source).\(name)" }

    // MARK: Counts

    /// Core Data's `minCount` of a to-many, nil when the model sets none. A non-optional to-many
    /// may be empty unless this says otherwise; an optional one may be empty whatever it says.
    public var minCount: Int? = nil
    /// Core Data's `maxCount` of a to-many, nil when the model sets none.
    public var maxCount: Int? = nil
}

extension RelationshipDescription {
    /// The `userInfo` key naming the attributes by which the destination's shared objects are
    /// found on another store when a graph travels (docs/architecture.md#the-document), for an
    /// entity with no `unique` attribute or `uniqueTogether` group: one name, or a list.
    public static let naturalKeyUserInfoKey = "naturalKey"

    /// The attribute names `naturalKey` gives (checked when the model loads), or nil.
    public var naturalKey: [String]? {
        switch userInfo[RelationshipDescription.naturalKeyUserInfoKey] {
        case .string(let name)?: return [name]
        case .array(let items)?: return items.compactMap(\.stringValue)
        default: return nil
        }
    }
}
