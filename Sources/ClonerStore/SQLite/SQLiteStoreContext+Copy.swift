import Foundation

extension SQLiteStoreContext {
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        var copier = GraphCopier(backend: SQLiteGraphCopier(context: self, plan: plan), plan: plan, schema: schema)
        return try copier.run(now: now, progress: progress)
    }
}
