import CLibPQ
import Foundation

extension PostgreSQLConnection {
    /// libpq's cancel request for this session (`PQgetCancel`), taken on the connection's own
    /// thread as libpq requires; `interrupt` may then run on any thread.
    func statementInterrupter() -> any StatementInterrupter {
        PostgreSQLCancelRequest(cancel: PQgetCancel(handle), gate: cancelGate)
    }
}

/// Closed while a COMMIT is under way. A COMMIT waiting for a synchronous standby that is
/// cancelled is kept on the primary alone, with only a warning (PostgreSQL §27.2.8): a failover
/// then could lose a transaction its client was told of. So no cancel request goes out from the
/// moment the COMMIT is sent until the transaction has ended; the job stops at its next check.
///
/// `@unchecked Sendable`: its one flag is read and written only while holding `lock`, and a
/// cancel request is sent while holding it too, so a COMMIT never starts between the check and
/// the request.
final class PostgreSQLCancelGate: @unchecked Sendable {
    private let lock = NSLock()
    private var committing = false

    /// Runs `body` (sending a cancel request) unless a COMMIT is under way.
    func unlessCommitting(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if !committing { body() }
    }

    func setCommitting(_ value: Bool) {
        lock.lock()
        committing = value
        lock.unlock()
    }
}

/// `@unchecked Sendable`: libpq documents `PQcancel` as safe to call from any thread on a
/// `PGcancel` object, which is independent of the connection it was made from; it is freed once,
/// when the last holder lets go.
private final class PostgreSQLCancelRequest: StatementInterrupter, @unchecked Sendable {
    private let cancel: OpaquePointer?
    private let gate: PostgreSQLCancelGate

    init(cancel: OpaquePointer?, gate: PostgreSQLCancelGate) {
        self.cancel = cancel
        self.gate = gate
    }

    deinit {
        if let cancel { PQfreeCancel(cancel) }
    }

    /// Asks the server to stop the session's running statement; it fails with SQLSTATE 57014
    /// (`query_canceled`). A failure to send the request is ignored, and none is sent while a
    /// COMMIT is under way: the job still stops at its next check of the cancellation.
    func interrupt() {
        guard let cancel else { return }
        gate.unlessCommitting {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &message, Int32(message.count))
        }
    }
}
