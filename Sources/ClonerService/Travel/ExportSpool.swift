import ClonerConcurrency
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One export's document on its way to the client: an unnamed temporary file its producer writes
/// at store speed, inside its read transaction, and its reader sends from as the client takes it.
/// The producer never waits for the client, so the transaction and its pooled connection end
/// when the read does, whatever the client does; the reader waits for the producer only when it
/// has caught up (it follows the file's tail).
///
/// Space: every byte written counts against the shared budget (`ExportSpools`) until the client took
/// it — the reader gives back whole MiBs behind it as it goes (punching them out of the file) and
/// the rest when it leaves. A producer that finds no room is cut short; its reader then fails the
/// response, so the client sees a body without its end.
///
/// Both sides hold the file: it is emptied once both have left, and closed only when nothing
/// refers to the spool, so neither side can read or write a descriptor number the process has
/// since handed to another file.
final class ExportSpool: Sendable {
    /// The client left: the producer stops at its next piece.
    struct ReaderGone: Error, CustomStringConvertible {
        var description: String { "the client left before the export was spooled" }
    }

    /// No room left in the exports' spools for the producer's next piece.
    struct OutOfRoom: Error, CustomStringConvertible {
        let spooled: Int
        let inUse: Int
        let limit: Int
        var description: String {
            "the export's spool held \(spooled) bytes and exports in flight hold \(inUse) of maxExportSpoolBytes (\(limit)): out of room"
        }
    }

    /// The producer failed after the head was sent: the reader cuts the response.
    struct ProducerFailed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "the export failed while it was spooled: \(reason)" }
    }

    /// Writing or reading the file failed.
    struct FileFailure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "export spool: \(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }

    enum Ending: Sendable {
        case complete
        case failed(String)
    }

    struct State: Sendable {
        /// Bytes in the file.
        var written = 0
        /// Bytes from the start whose space the reader gave back.
        var punched = 0
        /// Bytes this spool counts against the budget now.
        var reserved = 0
        var ending: Ending?
        var readerGone = false
        /// The file's space and the budget's share were given back; nothing more is written.
        var spaceReleased = false
        /// The producer and the reader; the file closes when both left.
        var holders = 2
        /// The reader, waiting for the producer to write more or end.
        var waiter: CheckedContinuation<Void, Never>?
    }

    let descriptor: Int32
    let budget: ByteBudget
    let state = LockedValue(State())

    /// Opens an unnamed file in `directory` (`O_TMPFILE`; where the file system lacks it, a
    /// named one removed at once), so nothing is left behind even if the process dies.
    init(directory: String, budget: ByteBudget) throws {
        self.budget = budget
        descriptor = try Self.openUnnamed(in: directory)
    }

    deinit {
        Glibc.close(descriptor)
    }

    private static func openUnnamed(in directory: String) throws -> Int32 {
        // `O_TMPFILE` is a macro Swift does not import: `__O_TMPFILE | O_DIRECTORY` (asm-generic).
        let unnamed = open(directory, O_RDWR | O_CLOEXEC | O_DIRECTORY | 0o20000000, 0o600)
        if unnamed >= 0 { return unnamed }
        var template = Array((directory as NSString).appendingPathComponent("cloner-export-XXXXXX").utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else { throw FileFailure(operation: "creating a file in \(directory)", code: errno) }
        _ = fcntl(named, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return named
    }

    // MARK: The producer's side

    /// Runs the producer: `body` hands each piece of the document to `emit`, which appends it
    /// without waiting for the reader. Returns the error that cut the document short, if any;
    /// nil when it is complete or its client left.
    func produce(_ body: (_ emit: ([UInt8]) throws -> Void) throws -> Void) -> (any Error)? {
        defer { leave() }
        if state.withLock({ $0.readerGone }) { return nil }
        do {
            try body { bytes in try self.append(bytes) }
            end(.complete)
            return nil
        } catch is ReaderGone {
            return nil
        } catch {
            end(.failed("\(error)"))
            releaseSpace()
            return error
        }
    }

    private func append(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let offset: Int = try state.withLock { state throws in
            if state.readerGone || state.spaceReleased { throw ReaderGone() }
            // A share of its own for each piece: `resize` from nothing takes it, to nothing gives it back.
            guard budget.resize(from: 0, to: bytes.count) else {
                throw OutOfRoom(spooled: state.written, inUse: budget.inUse, limit: budget.limit)
            }
            state.reserved += bytes.count
            return state.written
        }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileFailure(operation: "writing", code: errno)
            }
            done += count
        }
        let waiter = state.withLock { state in
            state.written += bytes.count
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    private func end(_ ending: Ending) {
        let waiter = state.withLock { state in
            state.ending = ending
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    // MARK: Both sides

    /// Empties the file and gives its share back, at once: the client left, or the document was
    /// cut short and will not be sent.
    func releaseSpace() {
        let held: Int? = state.withLock { state in
            guard !state.spaceReleased else { return nil }
            state.spaceReleased = true
            defer { state.reserved = 0 }
            return state.reserved
        }
        guard let held else { return }
        _ = ftruncate(descriptor, 0)
        _ = budget.resize(from: held, to: 0)
    }

    /// One side is done with the file; the last one closes it (through `deinit`, once nothing
    /// refers to the spool) after giving back whatever it still held.
    func leave() {
        if state.withLock({ state in
            state.holders -= 1
            return state.holders == 0
        }) {
            releaseSpace()
        }
    }
}
