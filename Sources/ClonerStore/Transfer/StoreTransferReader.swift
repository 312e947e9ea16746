import ClonerModel
import Foundation

/// Reads a whole store for a move, table by table, in key order, a page at a time: memory holds
/// one page of rows, or one run of at most `chunkRunBytes` of blob chunks, never a table or a
/// blob whole. One read transaction (the context's) gives a consistent snapshot of everything.
///
/// Not `Sendable`: it reads through a context that belongs to the calling thread.
public struct StoreTransferReader {
    public let schema: StoreSchema
    private let connection: any SQLStoreContext
    /// Rows per page of a table: one query per page, never one per row.
    public var pageSize = 1_000
    /// Bytes of chunks one query reads at most (one chunk more when a blob is larger).
    public var chunkRunBytes: Int64 = 8 << 20

    public init(context: any StoreContext) {
        schema = context.schema
        connection = context.rowAccess.context
    }

    public var tables: [TransferTable] { schema.transferTables }

    /// Hands every row of `table` to `body`, in key order, as values in `table.columns` order.
    public func forEachRow(of table: TransferTable, _ body: ([AttributeValue]) throws -> Void) throws {
        let statement = TransferStatement.page(table)
        let types = table.columns.map(\.type)
        var after = table.firstKey
        while true {
            var count = 0
            var last: [AttributeValue] = []
            try connection.transferRows(statement, after + [.integer(Int64(pageSize))], types: types) { row in
                count += 1
                last = row
                try body(row)
            }
            guard count == pageSize else { return }
            after = Array(last.prefix(table.keyColumnCount))
        }
    }

    /// Hands every finished blob to `blob`, in key order, each followed by its chunks in number
    /// order to `chunk`. Chunks are read in runs: several small blobs' chunks in one query, a
    /// large blob's a run of chunks at a time.
    public func forEachBlob(_ blob: (TransferBlob) throws -> Void, chunk: (TransferChunk) throws -> Void) throws {
        var after = Data()
        let chunkSize = Int64(StoreSchema.blobChunkSize)
        while true {
            var page: [TransferBlob] = []
            try connection.transferRows(.blobPage, [.binary(after), .integer(Int64(pageSize))], types: [.binary, .integer]) { row in
                guard case .binary(let hash) = row[0], case .integer(let size) = row[1] else { return }
                page.append(TransferBlob(hash: hash, size: size))
            }
            var start = 0
            while start < page.count {
                // A run: consecutive blobs up to the byte budget, or one blob larger than it.
                var end = start + 1
                var bytes = page[start].size
                while end < page.count, bytes + page[end].size <= chunkRunBytes {
                    bytes += page[end].size
                    end += 1
                }
                let run = page[start..<end]
                if run.count == 1, run[start].size > chunkRunBytes {
                    try blob(run[start])
                    let perQuery = max(1, chunkRunBytes / chunkSize)
                    var first: Int64 = 0
                    while first * chunkSize < run[start].size {
                        try readChunks(from: run[start].hash, to: run[start].hash, numbers: first..<(first + perQuery), chunk)
                        first += perQuery
                    }
                } else {
                    // Blobs are announced in key order as their chunks come; one without chunks
                    // (an empty value uploaded as an empty body) is announced all the same.
                    var next = run.startIndex
                    var announced: Data?
                    try readChunks(from: run.first!.hash, to: run.last!.hash, numbers: 0..<Int64.max) { piece in
                        if piece.hash != announced {
                            while next < run.endIndex {
                                let candidate = run[next]
                                next += 1
                                try blob(candidate)
                                if candidate.hash == piece.hash {
                                    announced = candidate.hash
                                    break
                                }
                            }
                        }
                        try chunk(piece)
                    }
                    while next < run.endIndex {
                        try blob(run[next])
                        next += 1
                    }
                }
                start = end
            }
            guard page.count == pageSize, let last = page.last else { return }
            after = last.hash
        }
    }

    /// Hands every finished blob to `body`, in key order, without its bytes: what a check of a
    /// move's blob section needs.
    public func forEachBlobRow(_ body: (TransferBlob) throws -> Void) throws {
        var after = Data()
        while true {
            var count = 0
            try connection.transferRows(
                .blobPage, [.binary(after), .integer(Int64(pageSize))], types: [.binary, .integer]
            ) { row in
                guard case .binary(let hash) = row[0], case .integer(let size) = row[1] else { return }
                count += 1
                after = hash
                try body(TransferBlob(hash: hash, size: size))
            }
            guard count == pageSize else { return }
        }
    }

    private func readChunks(from first: Data, to last: Data, numbers: Range<Int64>, _ body: (TransferChunk) throws -> Void) throws {
        try connection.transferRows(
            .chunkRun,
            [.binary(first), .binary(last), .integer(numbers.lowerBound), .integer(numbers.upperBound)],
            types: TransferColumn.chunkColumns.map(\.type)
        ) { row in
            guard case .binary(let hash) = row[0], case .integer(let number) = row[1], case .binary(let bytes) = row[2] else { return }
            try body(TransferChunk(hash: hash, number: number, bytes: bytes))
        }
    }

    /// The highest `_id` `entity` ever issued, so the target issues none of them again.
    public func highestIssuedID(entity: String) throws -> Int64 {
        try connection.highestIssuedID(entity: entity)
    }
}
