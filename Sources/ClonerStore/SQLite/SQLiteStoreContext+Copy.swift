import Foundation

extension SQLiteStoreContext {
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult {
        try SQLiteGraphCopier(context: self, plan: plan).run(now: now, progress: progress)
    }
}
