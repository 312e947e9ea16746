import Foundation

extension SQLiteStoreContext {
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        let plan = try resolvingHierarchyFields(of: plan)
        var copier = GraphCopier(backend: SQLiteGraphCopier(context: self, plan: plan), plan: plan, schema: schema)
        return try copier.run(now: now, progress: progress)
    }
}
