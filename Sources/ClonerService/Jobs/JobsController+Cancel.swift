import ClonerHTTP
import ClonerStore
import Foundation

/// `DELETE /jobs/{id}`: stops a queued or running job of this process (`JobCancellation`): 202
/// with the job while the stop is underway, 200 once it reads `cancelled`, 409 when it has
/// finished otherwise or is already committing (a COMMIT in flight is never interrupted).
///
/// A job running on another replica answers 409 `job_elsewhere`: its transaction holds its row
/// locked until it ends, so this replica can neither mark it nor stop it; the client learns the
/// job still runs and polls it. (Stopping it there would need a channel between replicas.)
extension JobsController {
    static let jobElsewhere = Problem.Code("job_elsewhere")

    func cancel(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try JobsController.jobID(request)
        if let cancellation = jobs.cancellation(id) {
            guard cancellation.cancel() else {
                throw Problem(code: .conflict, detail: "job \(id) is already committing; it cannot be cancelled any more")
            }
            // Still in the registry: underway. Gone meanwhile: its row says how it ended.
            if let live = liveDocument(id) { return .json(live, status: .accepted, headers: ["Location": "/jobs/\(id)"]) }
        }
        guard let record = try store.read({ try $0.job(id: id) }) else { throw Problem.notFound("no job \(id)") }
        switch record.status {
        case .cancelled:
            return .json(document(record))
        case .succeeded, .failed:
            throw Problem(code: .conflict, detail: "job \(id) has already \(record.status.rawValue); only a queued or running job can be cancelled")
        case .queued, .running:
            if jobs.cancellation(id) != nil || record.owner == replicaID {
                // This process's job, between its cancel and its `cancelled` row.
                return .json(document(record), status: .accepted, headers: ["Location": "/jobs/\(id)"])
            }
            throw Problem(
                code: JobsController.jobElsewhere, status: 409,
                detail: "job \(id) runs on another replica, which alone can stop it; it was not cancelled")
        }
    }
}
