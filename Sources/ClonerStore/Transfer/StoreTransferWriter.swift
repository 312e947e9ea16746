import ClonerModel
import Foundation

/// Fills an empty store for a move: rows with their own `_id`s and `_version`s, blobs by key,
/// then the id sequences past what the source issued. Everything goes through the context's
/// one write transaction, so a refused or failed move leaves the store as it was.
///
/// Not `Sendable`: it writes through a context that belongs to the calling thread.
public struct StoreTransferWriter {
    public let schema: StoreSchema
    private let connection: any SQLStoreContext

    public init(context: any StoreContext) {
        schema = context.schema
        connection = context.rowAccess.context
    }

    /// Throws `StoreTransferError.notEmpty` naming the first table that holds a row. The blob
    /// table may hold the model's default values, which every store stores when it opens; their
    /// keys are returned, so their blobs are not written twice.
    public func requireEmpty() throws -> Set<Data> {
        for table in schema.transferTables {
            var found = false
            try connection.transferRows(.anyRow(table: table.name), [], types: [.integer]) { _ in found = true }
            if found { throw StoreTransferError.notEmpty(table: table.name) }
        }
        let defaults = Set(schema.defaultBlobValues.map(BlobDigest.sha256))
        var stored: Set<Data> = []
        try connection.transferRows(.firstBlobs, [.integer(Int64(defaults.count + 1))], types: [.binary]) { row in
            if case .binary(let hash) = row[0] { stored.insert(hash) }
        }
        guard stored.isSubset(of: defaults) else { throw StoreTransferError.notEmpty(table: StoreSchema.blobTable) }
        return stored
    }

    /// Inserts rows of `table`, values in `table.columns` order, `_id`s as given.
    public func insert(_ rows: [[AttributeValue]], into table: TransferTable) throws {
        guard !rows.isEmpty else { return }
        try connection.transferInsert(table: table.name, columns: table.columns, rows: rows)
    }

    /// Inserts blob rows, then chunk rows (of these blobs or of blobs inserted before): a chunk
    /// refers to its blob row at once.
    public func insert(blobs: [TransferBlob], chunks: [TransferChunk]) throws {
        if !blobs.isEmpty {
            try connection.transferInsert(
                table: StoreSchema.blobTable, columns: TransferColumn.blobColumns,
                rows: blobs.map { [.binary($0.hash), .integer($0.size)] })
        }
        if !chunks.isEmpty {
            try connection.transferInsert(
                table: StoreSchema.blobChunkTable, columns: TransferColumn.chunkColumns,
                rows: chunks.map { [.binary($0.hash), .integer($0.number), .binary($0.bytes)] })
        }
    }

    /// Sets `entity`'s sequence so the next create gets an `_id` above `id`.
    public func issueIDs(above id: Int64, entity: String) throws {
        try connection.issueIDs(above: id, entity: entity)
    }
}
