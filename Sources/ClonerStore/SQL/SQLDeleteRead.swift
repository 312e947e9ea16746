/// One read a delete makes before it writes, and what its ids mean.
struct SQLDeleteRead {
    enum Kind {
        /// A doomed `source` object still related through a `deny` relationship to a survivor.
        case denied(source: String, relationship: String)
        /// Surviving rows of `table` whose reference column points at a doomed object.
        case referencing(table: String, ForeignKeyDescription)
        /// Surviving objects of `entity` that list a doomed object (their inverse list changes).
        case listing(entity: String)
        /// The blob keys doomed rows hold in a binary column (blobs they may leave unreferenced).
        case blobKeys
    }
    let kind: Kind
    let sql: String
    let arguments: [SQLArgument]
}
