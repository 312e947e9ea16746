/// Splits a byte stream into lines as the bytes arrive, however the chunks cut them, counting
/// lines from 1 so every error can name the line it is about. A trailing `\r` is dropped (a
/// document saved on Windows) and empty lines are skipped.
public struct GraphLineReader: Sendable {
    private var pending: [UInt8] = []
    public private(set) var lineNumber = 0
    /// A line longer than this is refused before it is held whole (a body that is not NDJSON).
    public let maximumLineBytes: Int

    public init(maximumLineBytes: Int = 256 * 1024 * 1024) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The bytes of the unfinished line: what a service counts against the bytes all its imports
    /// may hold at once. Its length, not the buffer's capacity: the buffer grows by doubling, so
    /// its capacity depends on how the chunks cut the line, and a budget counted in it would
    /// refuse a line alone that fits it when another client's packets split it differently. The
    /// buffer may reserve up to as much again.
    public var heldBytes: Int { pending.count }

    /// Scans `bytes` through a buffer pointer: the generic collection path (over `Data`, say)
    /// cost more than parsing the lines.
    public mutating func feed(_ bytes: [UInt8], line handle: (Int, ArraySlice<UInt8>) throws -> Void) throws {
        var start = 0
        let newlines: [Int] = bytes.withUnsafeBufferPointer { buffer in
            var found: [Int] = []
            var index = 0
            while index < buffer.count, let next = buffer[index...].firstIndex(of: UInt8(ascii: "\n")) {
                found.append(next)
                index = next + 1
            }
            return found
        }
        for newline in newlines {
            lineNumber += 1
            if pending.isEmpty {
                try deliver(bytes[start..<newline], handle)
            } else {
                pending.append(contentsOf: bytes[start..<newline])
                // Moved out, not copied: emptied in place while `line` still shares its storage,
                // a line of 256 MiB would be held twice. The next line starts a buffer of its own.
                let line = pending
                pending = []
                try deliver(line[...], handle)
            }
            start = newline + 1
        }
        pending.append(contentsOf: bytes[start...])
        if pending.count > maximumLineBytes {
            throw GraphImportError.badLine(line: lineNumber + 1, field: "", message: "longer than \(maximumLineBytes) bytes", syntax: true)
        }
    }

    /// The last line, when the document does not end with a newline.
    public mutating func finish(line handle: (Int, ArraySlice<UInt8>) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        lineNumber += 1
        let line = pending
        pending = []
        try deliver(line[...], handle)
    }

    private func deliver(_ line: ArraySlice<UInt8>, _ handle: (Int, ArraySlice<UInt8>) throws -> Void) throws {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard !line.isEmpty else { return }
        try handle(lineNumber, line)
    }
}
