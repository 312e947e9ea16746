import ClonerModel
import Foundation

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
    /// Keyset cursor: the `_id` of the last object of the previous page. Under the default order
    /// it is a position and needs no object; under another order the object gives its sort keys, so
    /// it must still exist. `position` is the cursor that survives the object's deletion.
    public var after: Int64?
    /// Keyset cursor as a position in the order: continue after these values.
    public var position: Position?

    /// Where a row sits in a request's order: the values of its sort keys, then its `_id` — what a
    /// list's `next` cursor carries, so the next page starts after that place in the order whether
    /// or not the row is still there.
    public struct Position: Sendable, Hashable {
        /// A sort-key value as the store compares it: the storage classes every backend has.
        public enum Value: Sendable, Hashable {
            case null
            case integer(Int64)
            case double(Double)
            case text(String)
            case blob(Data)
        }

        /// One value per `sort` key, then the `_id` (`.integer`).
        public var values: [Value]
        public init(values: [Value]) {
            self.values = values
        }
    }

    public init(entity: String, predicates: [Equality] = [], sort: [Sort] = [], limit: Int? = nil, after: Int64? = nil) {
        self.entity = entity
        self.predicates = predicates
        self.sort = sort
        self.limit = limit
        self.after = after
    }
}
