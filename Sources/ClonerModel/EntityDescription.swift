/// One entity of the model: a table in the store, a collection in the REST API.
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    /// The URL segment of the entity's records (`/notes/42`).
    public var collection: String
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    /// Groups of attributes whose values together must be unique (Core Data's uniqueness
    /// constraints, SwiftData's `#Unique`), each guarded by one unique index (docs/architecture.md#the-model-file).
    public var uniqueTogether: [[String]]

    private var attributeIndex: [String: Int] = [:]
    private var relationshipIndex: [String: Int] = [:]

    public init(
        name: String, collection: String? = nil, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
        uniqueTogether: [[String]] = []
    ) {
        self.name = name
        self.collection = collection ?? EntityDescription.defaultCollection(for: name)
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueTogether = uniqueTogether
        reindex()
    }

    /// The entity name lower-cased with an `s`, as docs/architecture.md#the-model-file says.
    public static func defaultCollection(for name: String) -> String { name.lowercased() + "s" }

    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex[name].map { attributes[$0] }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndex[name].map { relationships[$0] }
    }

    /// Whether `name` is any property (attribute or relationship) of the entity.
    public func hasProperty(named name: String) -> Bool {
        attributeIndex[name] != nil || relationshipIndex[name] != nil
    }

    mutating func reindex() {
        attributeIndex = Dictionary(attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        relationshipIndex = Dictionary(relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func updateRelationship(at index: Int, _ body: (inout RelationshipDescription) -> Void) {
        body(&relationships[index])
    }
}
