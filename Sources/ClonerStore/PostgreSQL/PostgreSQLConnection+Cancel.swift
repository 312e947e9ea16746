import CLibPQ

extension PostgreSQLConnection {
    /// libpq's cancel request for this session (`PQgetCancel`), taken on the connection's own
    /// thread as libpq requires; `interrupt` may then run on any thread.
    func statementInterrupter() -> any StatementInterrupter {
        PostgreSQLCancelRequest(cancel: PQgetCancel(handle))
    }
}

/// `@unchecked Sendable`: libpq documents `PQcancel` as safe to call from any thread on a
/// `PGcancel` object, which is independent of the connection it was made from; it is freed once,
/// when the last holder lets go.
private final class PostgreSQLCancelRequest: StatementInterrupter, @unchecked Sendable {
    private let cancel: OpaquePointer?

    init(cancel: OpaquePointer?) {
        self.cancel = cancel
    }

    deinit {
        if let cancel { PQfreeCancel(cancel) }
    }

    /// Asks the server to stop the session's running statement; it fails with SQLSTATE 57014
    /// (`query_canceled`). A failure to send the request is ignored: the job still stops at its
    /// next check of the cancellation.
    func interrupt() {
        guard let cancel else { return }
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancel, &message, Int32(message.count))
    }
}
