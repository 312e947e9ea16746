import ClonerModel

extension StoreSchema {
    /// The blob rows and their chunks. Chunks go with their blob (ON DELETE CASCADE); a blob row
    /// is small, so it lives in a WITHOUT ROWID table keyed by its hash, while chunks stay in a
    /// rowid table, whose large rows SQLite stores best and `sqlite3_blob_open` can read.
    static let blobCreateStatements = [
        "CREATE TABLE IF NOT EXISTS \(quoted(blobTable)) (\"hash\" BLOB NOT NULL PRIMARY KEY, \"size\" INTEGER NOT NULL) WITHOUT ROWID",
        """
        CREATE TABLE IF NOT EXISTS \(quoted(blobChunkTable)) (\"hash\" BLOB NOT NULL REFERENCES \(quoted(blobTable))(\"hash\") ON DELETE CASCADE ON UPDATE CASCADE, \
        \"n\" INTEGER NOT NULL, \"bytes\" BLOB NOT NULL, UNIQUE (\"hash\", \"n\"))
        """,
    ]
}
