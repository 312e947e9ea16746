import CLibPQ

/// What a session's notices said that the store acts on; every other notice is dropped (libpq
/// would print it to stderr, among the JSON log lines).
///
/// The one that matters: a COMMIT waiting for its synchronous standby whose wait was cancelled —
/// pg_auto_failover's keeper does it to every waiting session as it turns synchronous replication
/// off — returns success with a WARNING only: "The transaction has already committed locally, but
/// might not have been replicated to the standby" (PostgreSQL §27.2.8). It carries the generic
/// warning SQLSTATE 01000, so it is told by its primary message, which the server writes in
/// English unless `lc_messages` says otherwise.
///
/// Written by libpq's notice receiver on the thread that runs the session's command, and read by
/// that thread after the command: one thread at a time, as for the connection that owns it.
final class PostgreSQLNotices {
    /// A COMMIT's wait for the synchronous standby was cancelled since `reset()`.
    private(set) var synchronousWaitCancelled = false

    func reset() { synchronousWaitCancelled = false }

    /// Installs the receiver on `handle`; `self` must outlive the handle (the connection owns both).
    func receive(on handle: OpaquePointer) {
        PQsetNoticeReceiver(
            handle,
            { context, result in
                guard let context, let result else { return }
                Unmanaged<PostgreSQLNotices>.fromOpaque(context).takeUnretainedValue().hear(result)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func hear(_ result: OpaquePointer) {
        func field(_ code: Int32) -> String? { PQresultErrorField(result, code).map { String(cString: $0) } }
        guard field(cloner_pq_diag_severity_nonlocalized) == "WARNING", field(cloner_pq_diag_sqlstate) == "01000",
            field(cloner_pq_diag_message_primary)?.hasPrefix("canceling wait for synchronous replication") == true
        else { return }
        synchronousWaitCancelled = true
    }
}
