import ClonerModel

/// A record as a client sent it in a `POST` or `PATCH` body, already checked against the model:
/// every value has its attribute's type, every key names a property, and (for a create) every
/// required attribute is present. The store applies it without re-validating types; it still
/// checks what only the database knows (that a linked `_id` exists, unique constraints).
///
/// Built by `RecordInput.decode(...)` (in `RecordInput+JSON.swift`).
public struct RecordInput: Sendable, Hashable {
    public enum Mode: Sendable, Hashable {
        /// `POST`, and every nested object: absent attributes take their default, else null.
        case create
        /// `PATCH`: only the properties present in the body change.
        case update
    }

    /// What a relationship value points at.
    public indirect enum Reference: Sendable, Hashable {
        /// An existing object of the destination entity, by `_id`; the store answers 422 naming the
        /// field when it does not exist.
        case existing(Int64)
        /// A new object to create in the same transaction, then link.
        case new(RecordInput)
    }

    public enum RelationshipValue: Sendable, Hashable {
        /// nil unlinks.
        case toOne(Reference?)
        /// The whole new set (in order for an ordered relationship): it replaces the current one.
        case toMany([Reference])
    }

    /// The entity's name (`DataModel.entity(named:)`).
    public var entity: String
    public var mode: Mode
    /// By attribute name. For `.create`: every attribute of the entity, defaults and nulls filled in.
    /// For `.update`: only the attributes the body set. Iterate the entity's `attributes` for a
    /// stable column order.
    public var attributes: [String: AttributeValue]
    /// By relationship name; only the relationships the body set.
    public var relationships: [String: RelationshipValue]
    /// By field name, the fields declared into an inheritance hierarchy the body set, until the
    /// store says which concrete entity each `_id` is of (`resolvingHierarchyFields`).
    public var hierarchyFields: [String: HierarchyFieldValue] = [:]
    /// Per ordered to-many part a declared field was split into (by the part's name), the place
    /// of each of its references in the declared list (`ChangeSet.ListPlaces`): one order over
    /// the concrete entities.
    public var places: [String: [Int64]] = [:]
    /// For a nested object: the name of its relationship that points back at the enclosing object
    /// (the inverse of the relationship it was nested in). The store sets that link itself; the
    /// body may not set it. nil for the top-level object or when there is no inverse.
    public var linkedToParentThrough: String?
    /// For `.update`: the `_id` and `_version` the body names, if it does (a client sending back a
    /// record it read). They must be the URL's record and its current version; the caller checks
    /// (the version only the store knows), answering 422 naming the field.
    public var claimedID: Int64?
    public var claimedVersion: Int64?
    /// Where this object sits in the request body (`""` for the top level, `items[2]` for a nested
    /// one), so store errors about it (a missing `_id`, a unique clash) can name the field.
    public var path: String

    public init(
        entity: String, mode: Mode, attributes: [String: AttributeValue] = [:],
        relationships: [String: RelationshipValue] = [:], linkedToParentThrough: String? = nil, path: String = ""
    ) {
        self.entity = entity
        self.mode = mode
        self.attributes = attributes
        self.relationships = relationships
        self.linkedToParentThrough = linkedToParentThrough
        self.path = path
    }

    /// The field path of a property of this object, as error messages name it.
    public func fieldPath(_ property: String) -> String {
        path.isEmpty ? property : "\(path).\(property)"
    }

    /// How many objects this input creates, itself and nested ones included.
    public var createdObjectCount: Int {
        var count = mode == .create ? 1 : 0
        for value in relationships.values {
            switch value {
            case .toOne(.new(let nested)?): count += nested.createdObjectCount
            case .toMany(let references):
                for case .new(let nested) in references { count += nested.createdObjectCount }
            default: break
            }
        }
        for value in hierarchyFields.values {
            switch value {
            case .toOne(.new(let nested)?): count += nested.createdObjectCount
            case .toMany(let references):
                for case .new(let nested) in references { count += nested.createdObjectCount }
            default: break
            }
        }
        return count
    }
}
