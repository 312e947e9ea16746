/// A relationship as the model declared it, kept on each stored relationship made from it when the
/// declaration points into an inheritance hierarchy (docs/architecture.md#relationships-into-a-hierarchy).
///
/// A relationship to an abstract entity names objects of several concrete entities, each with a
/// table of its own; the store keeps one ordinary relationship per concrete destination (a *part*,
/// named `post__Page`), so the store and the clone engine see plain edges. The declaration is what
/// the API and the normalised model speak: one field (`post`), its abstract destination, the
/// declared inverse, and the cardinality that holds over all parts together (each part alone is
/// optional and unbounded). A relationship into a concrete entity whose inverse was split into
/// parts keeps its name and destination and carries a declaration only for the inverse's name.
public struct RelationshipDeclaration: Sendable, Hashable {
    /// The field of the API: the relationship's name in the model file.
    public var name: String
    /// As declared: an abstract entity for a part.
    public var destination: String
    public var inverseName: String?
    public var isOptional: Bool
    public var minCount: Int?
    public var maxCount: Int?

    public init(name: String, destination: String, inverseName: String?, isOptional: Bool, minCount: Int? = nil, maxCount: Int? = nil) {
        self.name = name
        self.destination = destination
        self.inverseName = inverseName
        self.isOptional = isOptional
        self.minCount = minCount
        self.maxCount = maxCount
    }

    /// The stored name of the part of relationship `name` whose objects are `destination`'s. Two
    /// underscores keep it apart from the names a model usually declares; a clash is still a model
    /// error naming both (two properties of one name).
    public static func partName(_ name: String, destination: String) -> String { "\(name)__\(destination)" }
}
