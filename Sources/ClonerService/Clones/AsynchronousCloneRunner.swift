import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// `Prefer: respond-async`: the job row is written before the 202 goes out, so `GET /jobs/{id}`
/// finds it even if the process dies right after; the job then runs like a synchronous clone and
/// writes its final row in its own transaction.
///
/// Transactions, and why each is needed: (1) the job row — with the `Idempotency-Key` claim and
/// its 202 answer when a key came, so a key never exists without its job; (2) `running`, committed
/// at once so every replica sees it while the clone's own transaction shows nothing; (3) the clone
/// with the `succeeded` row; (4) only when the clone failed, the `failed` row. On SQLite a key is
/// first peeked at in a read, so a retry does not queue behind the clone that holds it.
final class AsynchronousCloneRunner: Sendable {
    let store: IncrementalStore
    let engine: CloneEngine
    let metrics: ServiceMetrics
    let logger: Logger
    /// Given back when the job has finished, or at once when no job was started.
    let admission: CloneAdmission
    /// Asynchronous jobs of this process, for their live progress and the shutdown drain.
    let jobs: JobRegistry
    let idempotency: CloneIdempotency

    init(
        store: IncrementalStore, engine: CloneEngine, metrics: ServiceMetrics, logger: Logger, admission: CloneAdmission,
        jobs: JobRegistry, idempotency: CloneIdempotency
    ) {
        self.store = store
        self.engine = engine
        self.metrics = metrics
        self.logger = logger
        self.admission = admission
        self.jobs = jobs
        self.idempotency = idempotency
    }

    /// On a store worker (it writes). The 202 with the job, or, when `key` is already taken, the
    /// answer the key gives (a replay, 409, 422) and no job.
    func enqueue(_ plan: ClonePlan, request: HTTPRequest, key: String?, fingerprint: String) throws -> HTTPResponse {
        var jobStarted = false
        defer { if !jobStarted { admission.release(bytes: request.body.count) } }
        let now = Date()
        if let key, let answer = try idempotency.peek(key, fingerprint: fingerprint, request: request, now: now) { return answer }
        let jobID = UUID.random().uuidString.lowercased()
        let location = "/jobs/\(jobID)"
        let queued = JobsController.jobJSON(id: jobID, status: .queued, planned: 0, written: 0, result: nil, error: nil)
        let requestJSON = Data(request.body.isEmpty ? Array("{}".utf8) : request.body)
        let leases = idempotency.leases
        let owner = leases.replicaID
        let answer: HTTPResponse? = try store.write { context in
            if let key, let answer = try idempotency.claim(key, fingerprint: fingerprint, request: request, now: now, in: context) {
                return answer
            }
            try plan.checkTargets(in: context)
            try context.saveJob(JobRecord(id: jobID, status: .queued, request: requestJSON, owner: owner, leaseExpiresAt: leases.expiry()))
            if let key {
                try context.saveIdempotencyRecord(IdempotencyRecord(key: key, fingerprint: fingerprint, status: 202, location: location, body: Data(queued)))
            }
            return nil
        }
        if let answer { return answer }

        let started = ContinuousClock.now
        metrics.jobStarted()
        jobStarted = true
        let job = engine.start(
            plan, jobID: jobID,
            starting: { [store, logger] in
                // Not fatal: the job row still reads `queued`, and the clone goes on.
                do {
                    _ = try store.write { try $0.markJobRunning(id: jobID, owner: owner) }
                } catch {
                    logger.warning("recording a clone job as running failed", metadata: ["job": "\(jobID)", "error": "\(error)"])
                }
            },
            inTransactionBefore: { context in
                // Holds the row (PostgreSQL: locked) while the clone runs; a job another replica
                // already failed (this one looked dead) must not run after all.
                if try !context.holdJob(id: jobID, owner: owner) { throw CloneIdempotency.ReservationLost(what: "job \(jobID)") }
            },
            inTransactionAfter: { context, result in
                try context.saveJob(
                    JobRecord(id: jobID, status: .succeeded, request: requestJSON, result: Data(result.jsonBytes()), finishedAt: Date(), owner: owner))
            },
            completion: { [self] job in
                if let result = job.result {
                    metrics.recordClone(result: .succeeded, objects: result.totalCreated, duration: ContinuousClock.now - started)
                } else {
                    metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
                    recordFailure(of: job, id: jobID, request: requestJSON, owner: owner)
                }
                metrics.jobFinished()
                jobs.remove(jobID)
                admission.release(bytes: request.body.count)
            })
        jobs.add(job)
        if job.finishedAt != nil { jobs.remove(jobID) }
        return HTTPResponse.json(queued, status: .accepted, headers: ["Location": location])
    }

    /// The `failed` row with the problem a client reads at `GET /jobs/{id}`; an error that is not a
    /// client's problem is logged with its detail (the row says only "internal error").
    private func recordFailure(of job: CloneJob, id jobID: String, request requestJSON: Data, owner: String) {
        let problem = Problem.from(job.error ?? Problem.internalError()) ?? Problem.internalError()
        if Problem.from(job.error ?? Problem.internalError()) == nil {
            logger.error("clone job failed", metadata: ["job": "\(jobID)", "error": "\(job.error.map { "\($0)" } ?? "unknown")"])
        }
        do {
            try store.write { context in
                try context.saveJob(
                    JobRecord(id: jobID, status: .failed, request: requestJSON, error: Data(problem.jsonBytes()), finishedAt: Date(), owner: owner))
            }
        } catch {
            logger.error("recording a failed clone job failed", metadata: ["job": "\(jobID)", "error": "\(error)"])
        }
    }
}
