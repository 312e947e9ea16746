import ClonerHTTP
import ClonerStore
import Foundation

/// `DELETE /jobs/{id}`: stops a queued or running job of this process (`JobCancellation`): 202
/// with the job while the stop is underway, 200 once it reads `cancelled`, 409 when it has
/// finished otherwise or is already committing (a COMMIT in flight is never interrupted).
///
/// A job running on another replica: its transaction holds its row locked until it ends, so the
/// cancel is recorded as a request row of its own (202); the owner's lease keeper reads it within
/// a third of the lease and stops the job as if it were asked itself — unless the job reaches its
/// commit first, when it succeeds as a cancel here would have let it.
extension JobsController {
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
            if jobs.cancellation(id) == nil && record.owner != replicaID {
                guard try store.write({ try $0.requestJobCancellation(id: id, now: Date()) }) else {
                    // It ended meanwhile: its row says how.
                    return try cancel(request)
                }
            }
            // Underway: this process's job between its cancel and its `cancelled` row, or
            // another replica's, which stops it at its next look at the requests.
            return .json(document(record), status: .accepted, headers: ["Location": "/jobs/\(id)"])
        }
    }
}
