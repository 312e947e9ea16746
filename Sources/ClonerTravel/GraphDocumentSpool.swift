import Foundation

/// The checked lines of a graph document (`GraphSpoolRecord`s), kept in a temporary file between
/// the check, while the body streams in, and the write, inside the write transaction: neither
/// step holds more than a buffer and a line of the document in memory. The file's name is removed
/// as soon as it is open, so it takes no space once the last importer holding it goes, even if
/// the process dies.
///
/// `@unchecked Sendable`: an import appends (while the body streams in) and then reads (in its
/// transaction) one step after the other, never at the same time; the buffer and the handle are
/// only touched there.
final class GraphDocumentSpool: @unchecked Sendable {
    let path: String
    let model: GraphSpoolRecord.ModelIndex
    private var handle: FileHandle?
    private var buffer: [UInt8] = []
    private static let bufferBytes = 1 << 20

    init(model: GraphSpoolRecord.ModelIndex) {
        self.model = model
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("cloner-import-\(UUID().uuidString.lowercased()).spool")
    }

    deinit {
        try? handle?.close()
    }

    func append(_ object: GraphDocumentLines.ObjectLine) throws {
        GraphSpoolRecord.append(object, model: model, to: &buffer)
        if buffer.count >= GraphDocumentSpool.bufferBytes { try flush() }
    }

    func append(_ reference: GraphDocumentLines.ReferenceLine) throws {
        GraphSpoolRecord.append(reference, model: model, to: &buffer)
        if buffer.count >= GraphDocumentSpool.bufferBytes { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        if handle == nil {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: path)
        }
        try handle!.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Every record appended, in order.
    func read(_ body: (GraphSpoolRecord) throws -> Void) throws {
        try flush()
        guard let reader = handle else { return }
        try reader.seek(toOffset: 0)
        var pending: [UInt8] = []
        var start = 0
        while let data = try reader.read(upToCount: GraphDocumentSpool.bufferBytes), !data.isEmpty {
            if start > 0 {
                pending.removeFirst(start)
                start = 0
            }
            pending.append(contentsOf: data)
            try pending.withUnsafeBytes { bytes in
                while bytes.count - start >= 4 {
                    let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
                    guard bytes.count - start - 4 >= length else { break }
                    try body(GraphSpoolRecord.read(UnsafeRawBufferPointer(rebasing: bytes[start + 4..<start + 4 + length]), model: model))
                    start += 4 + length
                }
            }
        }
    }
}
