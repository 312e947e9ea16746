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
    /// Core Data's Renaming ID (the name the entity or property had in the model version a store
    /// was made with), as saved; nil when it is absent or the current name. The store's migrator
    /// reads an entity's and a relationship's as a rename when the store has something of that
    /// name and the model no longer does (`SchemaRenames`); an attribute's reaches it as
    /// `originalName`. Core Data allows it to equal another current property's name (properties
    /// swapping names), so it is not refused for that: it then renames nothing.
    public var renamingID: String?
    /// The abstract entity it inherits from, when it is part of an inheritance hierarchy.
    public var parent: String?
    /// The root of its inheritance hierarchy; nil outside any. Every concrete entity of one
    /// hierarchy draws its `_id`s from one space, so an `_id` names one object of the hierarchy
    /// (docs/architecture.md#relationships-into-a-hierarchy).
    public var hierarchy: String?

    private var attributeIndex: [String: Int] = [:]
    private var relationshipIndex: [String: Int] = [:]

    public init(
        name: String, collection: String? = nil, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
        uniqueTogether: [[String]] = [], renamingID: String? = nil
    ) {
        self.name = name
        self.collection = collection ?? EntityDescription.defaultCollection(for: name)
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueTogether = uniqueTogether
        self.renamingID = renamingID
        reindex()
    }

    /// The entity name lower-cased in the English plural (docs/architecture.md#the-model-file): a
    /// consonant and `y` become `ies` (`Category` → `categories`); `ss`, `us`, `x`, `z`, `ch` and `sh`
    /// take `es` (`Status` → `statuses`, `Box` → `boxes`); any other final `s` is read as a plural
    /// already and kept (`Settings` → `settings`); everything else takes `s`. Only these regular
    /// endings: an irregular plural (`Person`) takes `s`, and a model names its own `collection`.
    public static func defaultCollection(for name: String) -> String {
        let lowered = name.lowercased()
        let letters = Array(lowered.utf8)
        guard let last = letters.last else { return "s" }
        let previous = letters.count > 1 ? letters[letters.count - 2] : nil
        let vowels = Set("aeiou".utf8)
        if last == UInt8(ascii: "y"), let previous, !vowels.contains(previous), previous != UInt8(ascii: "y") {
            return String(lowered.dropLast()) + "ies"
        }
        if ["ss", "us", "x", "z", "ch", "sh"].contains(where: { lowered.hasSuffix($0) }) { return lowered + "es" }
        if last == UInt8(ascii: "s") { return lowered }
        return lowered + "s"
    }

    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex[name].map { attributes[$0] }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndex[name].map { relationships[$0] }
    }

    /// The stored parts of field `name` when it is a relationship declared into an inheritance
    /// hierarchy (`RelationshipDeclaration`), in model order; empty for any other name.
    public func relationshipParts(ofField name: String) -> [RelationshipDescription] {
        relationships.filter { $0.isHierarchyPart && $0.fieldName == name }
    }

    /// What the store keeps for field `name`: the relationship itself, or — for a field declared
    /// into an inheritance hierarchy — its parts, one per concrete destination. Empty for an
    /// attribute, an unknown name, or a part's own name, which is no field.
    public func storedRelationships(ofField name: String) -> [RelationshipDescription] {
        if let relationship = relationship(named: name) { return relationship.isHierarchyPart ? [] : [relationship] }
        return relationshipParts(ofField: name)
    }

    /// The fields declared into an inheritance hierarchy, each once, in model order.
    public var hierarchyFieldNames: [String] {
        var seen: Set<String> = []
        return relationships.filter(\.isHierarchyPart).map(\.fieldName).filter { seen.insert($0).inserted }
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
