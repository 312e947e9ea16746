import Foundation

/// The bytes of a graph document as they arrived, kept in a temporary file until the import has
/// run: the document is checked as it streams in and written from here afterwards, inside the
/// write transaction, so neither step holds more than a chunk and a line of it in memory. The
/// file is removed when the last importer holding it goes.
///
/// `@unchecked Sendable`: an import appends (while the body streams in) and then reads (in its
/// transaction) one step after the other, never at the same time; `handle` is only touched there.
final class GraphDocumentSpool: @unchecked Sendable {
    let path: String
    private var handle: FileHandle?
    private(set) var size = 0

    init() {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("cloner-import-\(UUID().uuidString.lowercased()).ndjson")
    }

    deinit {
        try? handle?.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    func append(_ bytes: [UInt8]) throws {
        if handle == nil {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        try handle!.write(contentsOf: bytes)
        size += bytes.count
    }

    /// The bytes written so far, a chunk at a time.
    func read(chunk: Int = 1 << 20, _ body: ([UInt8]) throws -> Void) throws {
        guard size > 0 else { return }
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? reader.close() }
        while let data = try reader.read(upToCount: chunk), !data.isEmpty {
            try body(Array(data))
        }
    }
}
