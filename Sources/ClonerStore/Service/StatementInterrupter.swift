/// Stops the statement one connection runs, called from a thread other than the one running it
/// (`DELETE /jobs/{id}` stopping a clone). Whoever holds one must call `interrupt` only while the
/// transaction it was taken from is open: afterwards the connection may serve another request.
public protocol StatementInterrupter: Sendable {
    /// Makes the running statement (or, on SQLite, the next one before the connection goes idle)
    /// fail with the backend's interruption error; a no-op when the connection is idle.
    func interrupt()
}
