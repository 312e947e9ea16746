import Foundation

extension PostgreSQLStoreContext {
    /// The clone's bulk copy is not in this build for PostgreSQL: its set-based copier
    /// (`PostgreSQLGraphCopier`) lands separately and replaces this file. Until then a clone on a
    /// PostgreSQL store is refused clearly, before anything is written, rather than run object by
    /// object.
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        throw StoreError.backendUnavailable(
            location: connection.redactedURI,
            reason: "the PostgreSQL copier is not in this build: clones need a SQLite store")
    }
}
