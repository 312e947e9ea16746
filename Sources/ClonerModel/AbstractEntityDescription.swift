/// An abstract entity of the model (docs/architecture.md#relationships-into-a-hierarchy): no table
/// and no objects of its own, but a read-only collection over the objects of its concrete
/// descendants, and the declared destination of relationships that point into its hierarchy.
public struct AbstractEntityDescription: Sendable, Hashable {
    public var name: String
    /// The URL segment of its read-only collection (`/baseposts`).
    public var collection: String
    /// The entity it inherits from, itself abstract; nil for a hierarchy's root.
    public var parent: String?
    /// Its concrete descendants, in model order: whose objects its collection lists.
    public var concreteEntities: [String]
    /// The attributes every concrete descendant has alike (those declared on it and its
    /// ancestors): what its collection filters and orders by.
    public var attributes: [AttributeDescription]

    public init(name: String, collection: String, parent: String?, concreteEntities: [String], attributes: [AttributeDescription] = []) {
        self.name = name
        self.collection = collection
        self.parent = parent
        self.concreteEntities = concreteEntities
        self.attributes = attributes
    }

    public func attribute(named name: String) -> AttributeDescription? { attributes.first { $0.name == name } }
}
