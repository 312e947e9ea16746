import ClonerModel

/// Which objects of one entity to list, in which order, from where.
public struct FetchRequest: Sendable {
    /// `property == value`; a to-one relationship compares its destination `_id` (`.integer`) or
    /// `.null` for none.
    public struct Equality: Sendable, Hashable {
        public var property: String
        public var value: AttributeValue
        public init(_ property: String, _ value: AttributeValue) {
            self.property = property
            self.value = value
        }
    }

    public struct Sort: Sendable, Hashable {
        public var key: String
        public var ascending: Bool
        public init(_ key: String, ascending: Bool = true) {
            self.key = key
            self.ascending = ascending
        }
    }

    public var entity: String
    public var predicates: [Equality]
    /// Sort keys; `_id` is always appended as the last key so pages are stable.
    public var sort: [Sort]
    public var limit: Int?
    /// Keyset cursor: the `_id` of the last object of the previous page.
    public var after: Int64?

    public init(entity: String, predicates: [Equality] = [], sort: [Sort] = [], limit: Int? = nil, after: Int64? = nil) {
        self.entity = entity
        self.predicates = predicates
        self.sort = sort
        self.limit = limit
        self.after = after
    }
}
