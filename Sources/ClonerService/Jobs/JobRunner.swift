import ClonerHTTP
import ClonerStore
import Foundation
import Logging

/// `Prefer: respond-async`, for every operation that answers with a job (a clone, an import):
/// the job row is written before the 202 goes out, so `GET /jobs/{id}` finds it on every replica
/// even if the process dies right after; the work then runs and records its end in the row
/// (`AsynchronousJob`). The operation gives only its work (`JobWork`).
///
/// The `Idempotency-Key`, when one came, is claimed in the job row's transaction together with
/// its 202 answer, so a key never exists without its job. On SQLite a key is first peeked at in a
/// read, so a retry does not queue behind the operation that holds it.
final class JobRunner: Sendable {
    /// What `enqueue` answered.
    enum Outcome: Sendable {
        /// 202 with the job, which has started.
        case accepted(HTTPResponse)
        /// What the key gives (a replay, 409, 422); no job was started.
        case answered(HTTPResponse)

        var response: HTTPResponse {
            switch self {
            case .accepted(let response), .answered(let response): response
            }
        }
    }

    let store: IncrementalStore
    let idempotency: Idempotency
    /// Asynchronous jobs of this process, for their live progress and the shutdown drain.
    let jobs: JobRegistry
    let logger: Logger

    init(store: IncrementalStore, idempotency: Idempotency, jobs: JobRegistry, logger: Logger) {
        self.store = store
        self.idempotency = idempotency
        self.jobs = jobs
        self.logger = logger
    }

    /// On a store worker (it writes). The 202 with the job, or, when the key is already taken, the
    /// answer the key gives and no job.
    func enqueue(_ work: some JobWork, operation: IdempotentOperation) throws -> Outcome {
        let now = Date()
        if let key = operation.key, let answer = try idempotency.peek(key, fingerprint: operation.fingerprint, request: operation.request, now: now) {
            return .answered(answer)
        }
        let id = UUID.random().uuidString.lowercased()
        let queued = JobsController.jobJSON(id: id, status: .queued, planned: 0, written: 0, result: nil, error: nil)
        let accepted = HTTPResponse.json(queued, status: .accepted, headers: ["Location": "/jobs/\(id)"])
        let leases = idempotency.leases
        let owner = leases.replicaID
        let answer: HTTPResponse? = try store.write { [idempotency] context in
            if let key = operation.key,
                let answer = try idempotency.claim(key, fingerprint: operation.fingerprint, request: operation.request, now: now, in: context)
            {
                return answer
            }
            try work.check(in: context)
            try context.saveJob(JobRecord(id: id, status: .queued, request: work.requestJSON, owner: owner, leaseExpiresAt: leases.expiry()))
            try operation.keep(accepted, in: context)
            return nil
        }
        if let answer { return .answered(answer) }
        let cancellation = JobCancellation()
        jobs.register(cancellation, for: id)
        let job = work.start(
            AsynchronousJob(
                id: id, name: work.name, requestJSON: work.requestJSON, owner: owner, store: store, jobs: jobs, logger: logger,
                cancellation: cancellation, leases: leases))
        jobs.add(job)
        // A job that finished before it was added left the registry before it was in it.
        if job.finishedAt != nil { jobs.remove(id) }
        return .accepted(accepted)
    }
}
