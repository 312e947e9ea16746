/// Outcome of one non-blocking read or write, plain or TLS.
enum IOResult {
    case bytes(Int)
    /// Try again when the socket is ready; `wantsWrite` when TLS needs the socket writable to make
    /// progress on a read (or readable on a write, with `wantsWrite` false).
    case wouldBlock(wantsWrite: Bool)
    case eof
    case failed(Int32)
}
