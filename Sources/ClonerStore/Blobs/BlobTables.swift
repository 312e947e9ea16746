/// The blob tables' names as the SQL spells them, quoted once: a blob is stored per imported
/// row, and quoting the names each time showed in an import's profile.
enum BlobTables {
    static let blobs = quoted(StoreSchema.blobTable)
    static let chunks = quoted(StoreSchema.blobChunkTable)
}
