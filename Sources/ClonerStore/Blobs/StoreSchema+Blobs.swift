import ClonerModel
import Foundation

/// Binary values are stored once per content (docs/architecture.md#shared-blobs): a row in
/// `_cloner_blobs` keyed by the SHA-256 of the bytes, the bytes themselves in `_cloner_blob_chunks`
/// rows of at most `blobChunkSize` bytes, and a record's binary column holds the 32-byte key, with
/// a foreign key to the blob row. A clone copies the key like any other column.
extension StoreSchema {
    public static let blobTable = "_cloner_blobs"
    public static let blobChunkTable = "_cloner_blob_chunks"
    /// Bytes per chunk row: large enough that a 4 KiB attachment is one row, small enough that a
    /// streamed read or upload holds one chunk at a time and no row nears a backend's field limit
    /// (1 GB for a PostgreSQL bytea, `SQLITE_MAX_LENGTH` on SQLite).
    public static let blobChunkSize = 1 << 20

    /// Every binary attribute, as the table and column that hold its references.
    public var binaryColumns: [(entity: String, column: String)] {
        model.entities.flatMap { entity in
            entity.attributes.filter { $0.type == .binary }.map { (entity: entity.name, column: $0.name) }
        }
    }

    public func binaryAttributes(of entity: String) -> [String] {
        model.entity(named: entity)?.attributes.filter { $0.type == .binary }.map(\.name) ?? []
    }

    /// The bytes of the model's binary defaults. Their blobs are kept while the model names them,
    /// referenced or not: a clone's `exclude` writes the default's key without storing anything.
    public var defaultBlobValues: [Data] {
        var seen: Set<Data> = []
        var values: [Data] = []
        for entity in model.entities {
            for attribute in entity.attributes where attribute.type == .binary {
                if case .binary(let bytes)? = attribute.defaultValue, seen.insert(bytes).inserted { values.append(bytes) }
            }
        }
        return values
    }

    var defaultBlobHashes: [Data] { defaultBlobValues.map(BlobDigest.sha256) }

    /// Index on a reference column: the sweep's "still referenced?" probe and the database's own
    /// check when a blob row goes both look a key up in every binary column.
    static func blobIndexName(entity: String, column: String) -> String { "\(entity)_\(column)_blob" }
}

extension AttributeValue {
    /// The value as a filter compares it with a stored column: a binary value by its key.
    package var blobKeyed: AttributeValue {
        if case .binary(let bytes) = self { return .binary(BlobDigest.sha256(bytes)) }
        return self
    }
}
