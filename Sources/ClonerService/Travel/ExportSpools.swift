import Foundation

/// What every export shares: the spool budget (`maxExportSpoolBytes`), the producers' turns and
/// the folder the spools go in. Kept apart from `GraphTravelController`, which hands the
/// application's one instance to each export.
///
/// The budget counts what producers wrote and clients have not taken yet: an export reads its
/// graph at store speed into a spool so that no transaction or pooled connection waits on a
/// client, and without a bound clients that ask for large exports and never read could fill the
/// disk instead.
final class ExportSpools: Sendable {
    let budget: ByteBudget
    /// The room an export needs to start, one piece of the exporter's: below it the service is
    /// out of room for now, and a new export answers 503 rather than starting only to be cut.
    let startingRoom: Int
    let producers: ExportProducers
    /// `TMPDIR`, as an import's spool: one place for an operator to give the service room.
    let directory: String

    init(limit: Int, producers: Int, metrics: ServiceMetrics, directory: String = NSTemporaryDirectory()) {
        budget = ByteBudget(limit: limit) { metrics.setExportSpoolBytes($0) }
        startingRoom = min(limit, ExportSpool.pieceBytes)
        self.producers = ExportProducers(limit: producers)
        self.directory = directory
    }

    /// A new export's spool; a 503 when the exports in flight leave too little room for one more.
    func open() throws -> ExportSpool {
        guard budget.limit - budget.inUse >= startingRoom else {
            throw Problem(
                code: .serviceUnavailable,
                detail:
                    "exports in flight keep \(budget.inUse) bytes in their spools and fewer than \(startingRoom) remain (maxExportSpoolBytes: \(budget.limit)); retry shortly"
            )
        }
        return try ExportSpool(directory: directory, budget: budget)
    }
}
