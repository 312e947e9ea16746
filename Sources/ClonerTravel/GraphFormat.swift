import ClonerModel

/// The travelling graph's document (docs/architecture.md#graphs-that-travel): newline-delimited
/// JSON, one value per line, so a writer can stream it and a reader can check it a line at a time.
///
/// 1. a header: `kind: "header"`, `format`, `version`, the model's `fingerprint`, the `root`
///    (entity and local reference) and the `entities` the document uses with their properties'
///    types and natural key;
/// 2. one line per object, owners before what they own: `kind: "object"`, `entity`, `ref` (its
///    local reference: unique within its entity in this document), `parent` (the object through
///    whose owned relationship the walk reached it, or null for the root), `attributes` (in their
///    JSON forms, binary as base64) and `relationships` (local references: a number or null for a
///    to-one, a list for a to-many, in order when ordered);
/// 3. one line per shared object the graph links to but does not own (before the first object
///    line that names it): `kind: "reference"`, `entity`, `ref`, `key` (its natural key's values,
///    or null when its entity has none) and `attributes` (what an import needs to create it);
/// 4. a last line, `kind: "end"`, with the `objects` and `references` counts: a document cut
///    short (a connection lost mid-stream) has no end line and is refused whole.
public enum GraphFormat {
    public static let name = "cloner-graph"
    public static let version: Int64 = 1
    /// The media type of the document as `GET …/export` sends it; `application/x-ndjson` is taken too.
    public static let mediaType = "application/vnd.cloner.graph+x-ndjson"
    public static let acceptedMediaTypes = [mediaType, "application/x-ndjson"]

    /// The attributes an entity's shared objects are found by on another store: its first
    /// `unique` attribute, else its first `uniqueTogether` group, else the first `naturalKey` a
    /// relationship to it names in its `userInfo` (in model order); empty when there is none.
    public static func naturalKey(of entity: EntityDescription, in model: DataModel) -> [String] {
        if let unique = entity.attributes.first(where: \.isUnique) { return [unique.name] }
        if let group = entity.uniqueTogether.first { return group }
        for relationship in model.entities.flatMap(\.relationships) where relationship.destination == entity.name {
            if let key = relationship.naturalKey, !key.isEmpty { return key }
        }
        return []
    }
}
