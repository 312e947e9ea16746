import ClonerModel
import ClonerStore
import Foundation

/// Writes a whole store as a `StoreDocument`, streamed: one page of rows or one run of blob
/// chunks in memory at a time, handed to `write` as it is encoded. Run it in one read
/// transaction, so the document is one consistent snapshot.
public struct StoreDocumentExporter {
    /// Bytes gathered before they are handed on: large writes, few system calls.
    private static let flushBytes = 1 << 20

    public init() {}

    /// Returns each section's summary, in document order (the blob section first).
    public func run(in context: any StoreContext, write: ([UInt8]) throws -> Void) throws -> [StoreDocumentSummary] {
        let reader = StoreTransferReader(context: context)
        let tables = reader.tables
        var writer = GraphLineWriter(capacity: Self.flushBytes + (2 << 20))
        func flush(force: Bool = false) throws {
            guard force || writer.bytes.count >= Self.flushBytes, !writer.bytes.isEmpty else { return }
            try write(writer.bytes)
            writer.removeAll()
        }
        func line(_ value: JSONValue) throws {
            try flush(force: true)
            try write(Array((value.canonicalText + "\n").utf8))
        }

        try line(Self.header(model: context.model, tables: tables))

        var summaries: [StoreDocumentSummary] = []
        var blobs = StoreDocumentRows()
        var blobBytes: Int64 = 0
        try reader.forEachBlob { blob in
            blobs.add([.binary(blob.hash), .integer(blob.size)])
            blobBytes += blob.size
            let hex = blob.hash.lowercaseHex
            writer.beginObject()
            writer.key("kind"); writer.string("blob")
            writer.key("hash"); writer.string(hex)
            writer.key("size"); writer.integer(blob.size)
            writer.endObject()
            writer.endLine()
            try flush()
        } chunk: { chunk in
            writer.beginObject()
            writer.key("kind"); writer.string("chunk")
            writer.key("hash"); writer.string(chunk.hash.lowercaseHex)
            writer.key("n"); writer.integer(chunk.number)
            writer.key("bytes"); writer.value(.binary(chunk.bytes))
            writer.endObject()
            writer.endLine()
            try flush()
        }
        let blobSummary = StoreDocumentSummary(table: StoreDocument.blobSection, rows: blobs.count, checksum: blobs.finish(), bytes: blobBytes)
        summaries.append(blobSummary)
        try line(blobSummary.line)

        for table in tables {
            var rows = StoreDocumentRows()
            try reader.forEachRow(of: table) { values in
                writer.beginObject()
                writer.key("kind"); writer.string("row")
                writer.key("table"); writer.string(table.name)
                writer.key("values")
                rows.append(values, to: &writer)
                writer.endObject()
                writer.endLine()
                try flush()
            }
            let highest = table.kind == .entity ? try reader.highestIssuedID(entity: table.name) : nil
            let summary = StoreDocumentSummary(table: table.name, rows: rows.count, checksum: rows.finish(), highestID: highest)
            summaries.append(summary)
            try line(summary.line)
        }
        try line(.object(["kind": "end", "sections": .integer(Int64(summaries.count))]))
        try flush(force: true)
        return summaries
    }

    static func header(model: DataModel, tables: [TransferTable]) -> JSONValue {
        .object([
            "kind": "header", "format": .string(StoreDocument.format), "version": .integer(StoreDocument.version),
            "fingerprint": .string(model.fingerprint),
            "tables": .array(tables.map(Self.describe)),
        ])
    }

    static func describe(_ table: TransferTable) -> JSONValue {
        .object([
            "name": .string(table.name), "kind": .string(table.kind.rawValue),
            "columns": .array(table.columns.map { .object(["name": .string($0.name), "type": .string($0.type.rawValue)]) }),
        ])
    }
}
