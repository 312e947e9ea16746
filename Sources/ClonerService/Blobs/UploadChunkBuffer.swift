import Foundation

/// The bytes of an upload not yet written as a chunk, kept as the pieces the connection handed
/// over (at most 64 KiB each) rather than in a chunk-sized buffer: nothing is reserved ahead of
/// the bytes, so an upload waiting on a slow client holds what it received, and a chunk is
/// assembled only when it is complete, each piece released as it is copied in.
struct UploadChunkBuffer {
    private var pieces: [[UInt8]] = []
    /// The bytes held.
    private(set) var count = 0

    mutating func append(_ piece: [UInt8]) {
        guard !piece.isEmpty else { return }
        pieces.append(piece)
        count += piece.count
    }

    /// The first `size` bytes (at most `count`) as one chunk. While it is built the chunk and the
    /// pieces not yet copied are held, never the chunk and all its pieces.
    mutating func take(_ size: Int) -> Data {
        precondition(size <= count, "a chunk of \(size) bytes out of \(count)")
        var chunk = Data(capacity: size)
        var copied = 0
        var used = 0
        while copied < size {
            let piece = pieces[used]
            let wanted = min(piece.count, size - copied)
            chunk.append(contentsOf: piece[0..<wanted])
            copied += wanted
            if wanted == piece.count {
                pieces[used] = []
                used += 1
            } else {
                pieces[used] = Array(piece[wanted...])
            }
        }
        pieces.removeFirst(used)
        count -= size
        return chunk
    }
}
