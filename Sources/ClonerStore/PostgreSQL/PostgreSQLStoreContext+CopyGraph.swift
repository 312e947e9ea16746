import Foundation

extension PostgreSQLStoreContext {
    /// The clone's bulk copy (DESIGN.md §3, §3a, §6), by `PostgreSQLGraphCopier`.
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        var copier = PostgreSQLGraphCopier(context: self, plan: plan)
        return try copier.run(now: now, progress: progress)
    }
}
