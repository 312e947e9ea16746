import Foundation

/// What every export shares: the spool budget (`maxExportSpoolBytes`), the producers' turns and
/// the folder the spools go in. Kept apart from `GraphTravelController`, which hands the
/// application's one instance to each export.
final class ExportSpools: Sendable {
    let budget: ExportSpoolBudget
    let producers: ExportProducers
    /// `TMPDIR`, as an import's spool: one place for an operator to give the service room.
    let directory: String

    init(limit: Int, producers: Int, metrics: ServiceMetrics, directory: String = NSTemporaryDirectory()) {
        budget = ExportSpoolBudget(limit: limit, startingRoom: ExportSpool.pieceBytes, metrics: metrics)
        self.producers = ExportProducers(limit: producers)
        self.directory = directory
    }

    /// A new export's spool; a 503 when the exports in flight leave too little room for one more.
    func open() throws -> ExportSpool {
        guard budget.admitsAnother else {
            throw Problem(
                code: .serviceUnavailable,
                detail:
                    "exports in flight keep \(budget.inUse) bytes in their spools and fewer than \(budget.startingRoom) remain (maxExportSpoolBytes: \(budget.limit)); retry shortly"
            )
        }
        return try ExportSpool(directory: directory, budget: budget)
    }
}
