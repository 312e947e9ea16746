import ClonerModel
import ClonerStore
import Foundation

/// Reads a `StoreDocument` into an empty store, streamed, inside the caller's one write
/// transaction: each line is checked as it arrives (a refusal names the line and field), rows
/// are written in batches of multi-row INSERTs, blob chunks are hashed as they pass and written
/// in runs of a few MiB. `finish` then reads the store back and refuses unless every section's
/// count and checksum equal the document's; only then does it move the id sequences. A refusal
/// at any point throws, and the caller's transaction rolls everything back.
///
/// Not `Sendable`: it writes through a context that belongs to the calling thread.
public struct StoreDocumentImporter {
    private enum Stage {
        case header, blobs
        case table(Int)
        case end, done
    }

    /// The blob being read: its line, its running hash and length, the chunk expected next.
    private struct OpenBlob {
        let blob: TransferBlob
        let line: Int
        let digest = BlobDigest()
        var length: Int64 = 0
        var nextChunk: Int64 = 0
        /// Already in the store (a model default every store keeps): checked, not written again.
        let isStored: Bool
    }

    private static let batchRows = 1_000
    private static let batchBytes = 4 << 20

    private let writer: StoreTransferWriter
    private let reader: StoreTransferReader
    private let model: DataModel
    /// The target's tables, less the lineage when the document predates it.
    private var tables: [TransferTable]
    private var lines = GraphLineReader()
    private var stage = Stage.header
    private let storedBlobs: Set<Data>
    /// Every blob key the document or the store holds, for the check of binary values.
    private var knownBlobs: Set<Data>
    private var openBlob: OpenBlob?
    private var lastBlobKey = Data()
    private var blobRows = StoreDocumentRows()
    private var blobBytes: Int64 = 0
    private var pendingBlobs: [TransferBlob] = []
    private var pendingChunks: [TransferChunk] = []
    private var pendingBytes = 0
    private var rows = StoreDocumentRows()
    private var pendingRows: [[AttributeValue]] = []
    private var lastKey: [Int64] = []
    /// The last lineage row's key: its entity name's bytes and clone `_id`.
    private var lastLineageKey: (entity: [UInt8], id: Int64)?
    private var summaries: [StoreDocumentSummary] = []

    /// Refuses a store that holds records (`StoreTransferError.notEmpty`, naming the table).
    public init(context: any StoreContext) throws {
        writer = StoreTransferWriter(context: context)
        reader = StoreTransferReader(context: context)
        model = context.model
        tables = context.schema.transferTables
        storedBlobs = try writer.requireEmpty()
        knownBlobs = storedBlobs
    }

    public mutating func feed(_ bytes: [UInt8]) throws {
        var lines = self.lines
        defer { self.lines = lines }
        try lines.feed(bytes) { number, line in try self.handle(number, line) }
    }

    /// Ends the document, checks the store against it, and moves the id sequences. Returns the
    /// sections' summaries as the store now holds them (equal to the document's).
    public mutating func finish() throws -> [StoreDocumentSummary] {
        var lines = self.lines
        try lines.finish { number, line in try self.handle(number, line) }
        self.lines = lines
        guard case .done = stage else {
            throw StoreDocumentError.incomplete("it ends at line \(lines.lineNumber) without its end line (cut short?)")
        }
        let found = try storeSummaries()
        for (document, store) in zip(summaries, found) where document != store {
            throw StoreDocumentError.mismatch(table: document.table, message: "the store holds \(store) after writing, the document says \(document)")
        }
        for summary in summaries {
            if let highest = summary.highestID { try writer.issueIDs(above: highest, entity: summary.table) }
        }
        return found
    }

    /// What the store holds, section by section, computed as the export computes it.
    private func storeSummaries() throws -> [StoreDocumentSummary] {
        var result: [StoreDocumentSummary] = []
        var blobs = StoreDocumentRows()
        var bytes: Int64 = 0
        try reader.forEachBlobRow { blob in
            blobs.add([.binary(blob.hash), .integer(blob.size)])
            bytes += blob.size
        }
        result.append(StoreDocumentSummary(table: StoreDocument.blobSection, rows: blobs.count, checksum: blobs.finish(), bytes: bytes))
        for (index, table) in tables.enumerated() {
            var rows = StoreDocumentRows()
            try reader.forEachRow(of: table) { rows.add($0) }
            // The sequences move only after this check; the document's highest id is the one to keep.
            let highest = table.kind == .entity ? summaries[index + 1].highestID : nil
            result.append(StoreDocumentSummary(table: table.name, rows: rows.count, checksum: rows.finish(), highestID: highest))
        }
        return result
    }

    // MARK: - lines

    private mutating func handle(_ number: Int, _ line: ArraySlice<UInt8>) throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(line))
        } catch {
            throw StoreDocumentError.badLine(line: number, field: "", message: "not JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw StoreDocumentError.badLine(line: number, field: "", message: "expected a JSON object")
        }
        guard case .string(let kind)? = members["kind"] else {
            throw StoreDocumentError.badLine(line: number, field: "kind", message: "missing or not a string")
        }
        switch (stage, kind) {
        case (.header, "header"):
            try header(members, line: number)
            stage = .blobs
        case (.header, _):
            throw StoreDocumentError.badLine(line: number, field: "kind", message: "the document must begin with its header, found \(kind)")
        case (.blobs, "blob"):
            try blob(members, line: number)
        case (.blobs, "chunk"):
            try chunk(members, line: number)
        case (.blobs, "summary"):
            try closeBlob()
            try flushBlobs()
            let summary = StoreDocumentSummary(
                table: StoreDocument.blobSection, rows: blobRows.count, checksum: blobRows.finish(), bytes: blobBytes)
            try checkSummary(members, line: number, against: summary)
            summaries.append(summary)
            stage = tables.isEmpty ? .end : .table(0)
        case (.table(let index), "row"):
            try row(members, table: tables[index], line: number)
        case (.table(let index), "summary"):
            let table = tables[index]
            try flushRows(table)
            let highest: Int64?
            if table.kind == .entity {
                guard case .integer(let value)? = members["highestID"], value >= (lastKey.first ?? 0), value <= StoreSchema.largestID else {
                    throw StoreDocumentError.badLine(
                        line: number, field: "highestID",
                        message: "expected an integer no lower than the table's last _id and at most \(StoreSchema.largestID)")
                }
                highest = value
            } else {
                highest = nil
            }
            let summary = StoreDocumentSummary(table: table.name, rows: rows.count, checksum: rows.finish(), highestID: highest)
            try checkSummary(members, line: number, against: summary)
            summaries.append(summary)
            rows = StoreDocumentRows()
            lastKey = []
            lastLineageKey = nil
            stage = index + 1 < tables.count ? .table(index + 1) : .end
        case (.end, "end"):
            guard case .integer(let count)? = members["sections"], count == Int64(summaries.count) else {
                throw StoreDocumentError.badLine(line: number, field: "sections", message: "expected \(summaries.count)")
            }
            stage = .done
        case (.done, _):
            throw StoreDocumentError.badLine(line: number, field: "", message: "a line after the end line")
        default:
            throw StoreDocumentError.badLine(line: number, field: "kind", message: "\(kind) where \(expected) must come")
        }
    }

    private var expected: String {
        switch stage {
        case .header: return "the header"
        case .blobs: return "a blob, a chunk or the blob section's summary"
        case .table(let index): return "a row of \(tables[index].name) or its summary"
        case .end: return "the end line"
        case .done: return "nothing"
        }
    }

    private mutating func header(_ members: [String: JSONValue], line: Int) throws {
        guard members["format"] == .string(StoreDocument.format) else {
            throw StoreDocumentError.badLine(line: line, field: "format", message: "expected \"\(StoreDocument.format)\" (a whole-store document)")
        }
        guard members["version"] == .integer(StoreDocument.version) else {
            throw StoreDocumentError.badLine(line: line, field: "version", message: "expected \(StoreDocument.version)")
        }
        guard case .string(let fingerprint)? = members["fingerprint"], fingerprint == model.fingerprint else {
            throw StoreDocumentError.badLine(
                line: line, field: "fingerprint",
                message: "the document was written with another model than this store's (\(model.fingerprint)); move between stores of the same model")
        }
        guard case .array(let described)? = members["tables"] else {
            throw StoreDocumentError.badLine(line: line, field: "tables", message: "expected an array")
        }
        // A document written before the lineage was carried ends its tables without it: the
        // store's clones then have no recorded source, as they had none there.
        if described.count == tables.count - 1, tables.last?.kind == .lineage {
            tables.removeLast()
        }
        for (index, table) in tables.enumerated() {
            guard index < described.count, described[index] == StoreDocumentExporter.describe(table) else {
                throw StoreDocumentError.badLine(line: line, field: "tables[\(index)]", message: "expected table \(table.name) with this store's columns")
            }
        }
        guard described.count == tables.count else {
            throw StoreDocumentError.badLine(line: line, field: "tables", message: "expected \(tables.count) tables, found \(described.count)")
        }
    }

    private func checkSummary(_ members: [String: JSONValue], line: Int, against read: StoreDocumentSummary) throws {
        guard members["table"] == .string(read.table) else {
            throw StoreDocumentError.badLine(line: line, field: "table", message: "expected the summary of \(read.table)")
        }
        guard members["rows"] == .integer(read.rows) else {
            throw StoreDocumentError.mismatch(
                table: read.table, message: "line \(line) says \(members["rows"]?.canonicalText ?? "nothing") rows, the document holds \(read.rows)")
        }
        if let bytes = read.bytes, members["bytes"] != .integer(bytes) {
            throw StoreDocumentError.mismatch(
                table: read.table, message: "line \(line) says \(members["bytes"]?.canonicalText ?? "nothing") bytes, the document holds \(bytes)")
        }
        guard members["checksum"] == .string(read.checksum) else {
            throw StoreDocumentError.mismatch(
                table: read.table,
                message: "line \(line) gives checksum \(members["checksum"]?.canonicalText ?? "nothing"), the rows before it hash to \(read.checksum)")
        }
    }

    // MARK: - blobs

    private mutating func blob(_ members: [String: JSONValue], line: Int) throws {
        try closeBlob()
        guard case .string(let text)? = members["hash"], let hash = StoreDocumentRows.hexKey(text) else {
            throw StoreDocumentError.badLine(line: line, field: "hash", message: "expected a SHA-256 key (64 hex digits)")
        }
        guard hash.lexicographicallyPrecedes(lastBlobKey) == false, hash != lastBlobKey else {
            throw StoreDocumentError.badLine(line: line, field: "hash", message: "blobs must come in key order, each once")
        }
        guard case .integer(let size)? = members["size"], size >= 0 else {
            throw StoreDocumentError.badLine(line: line, field: "size", message: "expected a size in bytes")
        }
        lastBlobKey = hash
        let blob = TransferBlob(hash: hash, size: size)
        blobRows.add([.binary(hash), .integer(size)])
        blobBytes += size
        knownBlobs.insert(hash)
        let isStored = storedBlobs.contains(hash)
        if !isStored { pendingBlobs.append(blob) }
        openBlob = OpenBlob(blob: blob, line: line, isStored: isStored)
    }

    private mutating func chunk(_ members: [String: JSONValue], line: Int) throws {
        guard var open = openBlob else {
            throw StoreDocumentError.badLine(line: line, field: "kind", message: "a chunk before any blob")
        }
        guard case .string(let text)? = members["hash"], StoreDocumentRows.hexKey(text) == open.blob.hash else {
            throw StoreDocumentError.badLine(line: line, field: "hash", message: "expected the key of the blob on line \(open.line)")
        }
        guard members["n"] == .integer(open.nextChunk) else {
            throw StoreDocumentError.badLine(line: line, field: "n", message: "expected chunk \(open.nextChunk) of the blob on line \(open.line)")
        }
        guard case .string(let encoded)? = members["bytes"], let bytes = Data(base64Encoded: encoded) else {
            throw StoreDocumentError.badLine(line: line, field: "bytes", message: "expected base64")
        }
        guard bytes.count <= StoreSchema.blobChunkSize, open.length + Int64(bytes.count) <= open.blob.size else {
            throw StoreDocumentError.badLine(line: line, field: "bytes", message: "more bytes than the blob on line \(open.line) holds")
        }
        open.digest.update(bytes)
        open.length += Int64(bytes.count)
        open.nextChunk += 1
        openBlob = open
        if !open.isStored {
            pendingChunks.append(TransferChunk(hash: open.blob.hash, number: open.nextChunk - 1, bytes: bytes))
            pendingBytes += bytes.count
            if pendingBytes >= Self.batchBytes { try flushBlobs() }
        }
    }

    /// Checks the blob just read: its bytes must add up to its size and hash to its key.
    private mutating func closeBlob() throws {
        guard let open = openBlob else { return }
        openBlob = nil
        // An empty value has one empty chunk when saved with its record and none when it was
        // uploaded as an empty body: both are whole.
        guard open.length == open.blob.size else {
            throw StoreDocumentError.badLine(
                line: open.line, field: "size", message: "the blob's chunks hold \(open.length) bytes, not \(open.blob.size)")
        }
        let actual = open.digest.finish()
        guard actual == open.blob.hash else {
            throw StoreDocumentError.badLine(line: open.line, field: "hash", message: "the blob's bytes hash to \(actual.lowercaseHex)")
        }
    }

    private mutating func flushBlobs() throws {
        try writer.insert(blobs: pendingBlobs, chunks: pendingChunks)
        pendingBlobs.removeAll(keepingCapacity: true)
        pendingChunks.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    // MARK: - rows

    private mutating func row(_ members: [String: JSONValue], table: TransferTable, line: Int) throws {
        guard members["table"] == .string(table.name) else {
            throw StoreDocumentError.badLine(line: line, field: "table", message: "expected a row of \(table.name) (tables come in the header's order)")
        }
        guard case .array(let array)? = members["values"] else {
            throw StoreDocumentError.badLine(line: line, field: "values", message: "expected an array")
        }
        // The first two columns (`_id` and `_version`, or `src` and `dst`) are never null; no
        // column of the lineage is.
        let values = try StoreDocumentRows.decode(array, columns: table.columns, required: table.kind == .lineage ? 4 : 2, line: line)
        if table.kind == .lineage {
            try checkLineageKey(values, line: line)
            rows.add(values)
            pendingRows.append(values)
            if pendingRows.count >= Self.batchRows { try flushRows(table) }
            return
        }
        let key = values.prefix(table.keyColumnCount).map { value -> Int64 in
            if case .integer(let v) = value { return v }
            return 0
        }
        if let index = key.firstIndex(where: { !(1...StoreSchema.largestID).contains($0) }) {
            throw StoreDocumentError.badLine(
                line: line, field: "values[\(index)] (\(table.columns[index].name))",
                message: "expected an _id from 1 to \(StoreSchema.largestID), found \(key[index])")
        }
        guard lastKey.isEmpty || lastKey.lexicographicallyPrecedes(key) else {
            throw StoreDocumentError.badLine(line: line, field: "values[0]", message: "rows must come in key order, each key once")
        }
        for (index, column) in table.columns.enumerated() where column.type == .binary {
            if case .binary(let key) = values[index], !knownBlobs.contains(key) {
                throw StoreDocumentError.badLine(
                    line: line, field: "values[\(index)] (\(column.name))", message: "refers to blob \(key.lowercaseHex), which the document does not hold")
            }
        }
        lastKey = key
        rows.add(values)
        pendingRows.append(values)
        if pendingRows.count >= Self.batchRows { try flushRows(table) }
    }

    /// A lineage row's key: an entity of the model and a clone `_id` as an entity's, in key order
    /// (the entity name's bytes, then the `_id`), each once.
    private mutating func checkLineageKey(_ values: [AttributeValue], line: Int) throws {
        guard case .string(let entity) = values[0], model.entity(named: entity) != nil else {
            throw StoreDocumentError.badLine(line: line, field: "values[0] (entity)", message: "expected the name of an entity of the model")
        }
        guard case .integer(let id) = values[1], (1...StoreSchema.largestID).contains(id) else {
            throw StoreDocumentError.badLine(
                line: line, field: "values[1] (clone_id)", message: "expected an _id from 1 to \(StoreSchema.largestID), found \(values[1])")
        }
        let name = Array(entity.utf8)
        if let last = lastLineageKey {
            guard last.entity.lexicographicallyPrecedes(name) || (last.entity == name && last.id < id) else {
                throw StoreDocumentError.badLine(line: line, field: "values[0]", message: "rows must come in key order, each key once")
            }
        }
        lastLineageKey = (name, id)
    }

    private mutating func flushRows(_ table: TransferTable) throws {
        try writer.insert(pendingRows, into: table)
        pendingRows.removeAll(keepingCapacity: true)
    }
}
