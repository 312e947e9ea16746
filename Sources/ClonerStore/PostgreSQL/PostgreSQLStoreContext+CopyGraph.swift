import Foundation

extension PostgreSQLStoreContext {
    /// The clone's bulk copy (docs/architecture.md#clone-semantics, #many-copies, #postgresql), by `PostgreSQLGraphCopier`.
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        var copier = PostgreSQLGraphCopier(context: self, plan: plan)
        return try copier.run(now: now, progress: progress)
    }
}
