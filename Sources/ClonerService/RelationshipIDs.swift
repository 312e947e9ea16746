/// The object IDs a relationship of a stored record points at, as `RecordJSONCoding` writes them:
/// a to-one is an `_id` or null, a to-many an array of `_id`s (in order when ordered).
public enum RelationshipIDs: Sendable, Hashable {
    case toOne(Int64?)
    case toMany([Int64])
}
