import ClonerModel
import Foundation

/// The key-value rows a store keeps about itself (the same keys on both backends): whose
/// database it is, in which format, with which schema — what lets a store refuse a database
/// that belongs to something else, and know when the model changed.
enum StoreMetadata {
    /// The rows a new store is created with.
    static func created(uuid: String, snapshot: SchemaSnapshot) -> [String: String] {
        [
            "format": IncrementalStore.formatName,
            "format_version": IncrementalStore.formatVersion,
            "store_uuid": uuid,
            "model_fingerprint": snapshot.fingerprint,
            "schema": String(decoding: snapshot.encoded(), as: UTF8.self),
            "created_at": RFC3339Timestamp.format(millisecondsSince1970: RFC3339Timestamp.nowMilliseconds()),
        ]
    }

    /// The rows a migration to `snapshot` rewrites.
    static func migrated(to snapshot: SchemaSnapshot) -> [String: String] {
        [
            "model_fingerprint": snapshot.fingerprint,
            "schema": String(decoding: snapshot.encoded(), as: UTF8.self),
            "migrated_at": RFC3339Timestamp.format(millisecondsSince1970: RFC3339Timestamp.nowMilliseconds()),
        ]
    }

    /// An existing store's identity and stored schema, or why it is not a store this build opens
    /// (`place` names it in the error, password redacted).
    /// Whether the store was written before shared blobs (format version 1) and its binary
    /// values must move into the blob table first.
    static func needsBlobMigration(_ metadata: [String: String]) -> Bool {
        metadata["format_version"] == IncrementalStore.formatVersionBeforeBlobs
    }

    /// The row a finished blob migration writes.
    static let blobsMigrated = ["format_version": IncrementalStore.formatVersion]

    static func read(_ metadata: [String: String], place: String) throws -> (uuid: String, schema: SchemaSnapshot, fingerprint: String?) {
        guard metadata["format"] == IncrementalStore.formatName else {
            throw StoreError.incompatibleStore(
                path: place, reason: "metadata table has format \(metadata["format"] ?? "none"), expected \(IncrementalStore.formatName)")
        }
        guard metadata["format_version"] == IncrementalStore.formatVersion || needsBlobMigration(metadata) else {
            throw StoreError.incompatibleStore(
                path: place,
                reason: "store format version \(metadata["format_version"] ?? "none") is not supported (this build reads \(IncrementalStore.formatVersion))")
        }
        guard let uuid = metadata["store_uuid"], let stored = metadata["schema"].flatMap({ $0.data(using: .utf8) }),
            let schema = try? JSONDecoder().decode(SchemaSnapshot.self, from: stored)
        else {
            throw StoreError.incompatibleStore(path: place, reason: "metadata is incomplete or unreadable")
        }
        return (uuid, schema, metadata["model_fingerprint"])
    }
}
