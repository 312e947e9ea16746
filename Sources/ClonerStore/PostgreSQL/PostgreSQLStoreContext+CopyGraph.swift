import Foundation

extension PostgreSQLStoreContext {
    /// The clone's bulk copy (docs/architecture.md#clone-semantics, #many-copies, #postgresql): the
    /// shared steps (`GraphCopier`) on PostgreSQL's side of them (`PostgreSQLGraphCopier`).
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        let plan = try resolvingHierarchyFields(of: plan)
        var copier = GraphCopier(backend: PostgreSQLGraphCopier(context: self, plan: plan), plan: plan, schema: schema)
        do {
            return try copier.run(now: now, progress: progress)
        } catch let error as PostgreSQLError where error.isUniqueViolation {
            throw error.storeError(layout: layout)
        }
    }
}
