import ClonerClone
import ClonerStore
import Foundation

/// What `GET /jobs/{id}` and the shutdown drain need of an asynchronous job still running in this
/// process, whatever it does: a clone (`CloneJob`) or a graph import (`GraphImportJob`). Both
/// answer the same job document, so a client polls them the same way.
protocol RunningJob: AnyObject, Sendable {
    var id: String { get }
    var status: JobStatus { get }
    var progress: GraphCopyProgress { get }
    var finishedAt: Date? { get }
}

extension CloneJob: RunningJob {}
