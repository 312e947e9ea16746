import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// `POST /{collection}/{id}/clone` (docs/architecture.md#http-contract): reads the options, plans
/// the clone, holds a clone admission for it, and hands it to the runner the request asks for —
/// answered when it commits (`SynchronousCloneRunner`), or at once with a job that
/// `GET /jobs/{id}` reports on (`Prefer: respond-async`, `AsynchronousCloneRunner`). An
/// `Idempotency-Key` is claimed first (`CloneIdempotency`).
final class ClonesController: Sendable {
    let model: DataModel
    let engine: CloneEngine
    let options: CloneOptionsParser
    /// Whether a clone may wait for its turn, or the service is truly overloaded (503).
    let admission: CloneAdmission
    let idempotency: CloneIdempotency
    let synchronous: SynchronousCloneRunner
    let asynchronous: AsynchronousCloneRunner
    /// Where key claims and job rows are written: off the event loop.
    let writeWorkers: StoreWorkers
    let logger: Logger

    init(
        model: DataModel, store: IncrementalStore, engine: CloneEngine, metrics: ServiceMetrics, logger: Logger,
        maximumObjects: Int, maximumCopies: Int, maximumSetBytes: Int, maximumValues: Int, admission: CloneAdmission, jobs: JobRegistry,
        writeWorkers: StoreWorkers,
        leases: JobLeaseKeeper
    ) {
        self.model = model
        self.engine = engine
        self.options = CloneOptionsParser(
            maximumObjects: maximumObjects, maximumCopies: maximumCopies, maximumSetBytes: maximumSetBytes, maximumValues: maximumValues)
        self.admission = admission
        let idempotency = CloneIdempotency(store: store, metrics: metrics, logger: logger, leases: leases)
        self.idempotency = idempotency
        self.synchronous = SynchronousCloneRunner(engine: engine, metrics: metrics, logger: logger, admission: admission, idempotency: idempotency)
        self.asynchronous = AsynchronousCloneRunner(
            store: store, engine: engine, metrics: metrics, logger: logger, admission: admission,
            jobs: jobs, idempotency: idempotency)
        self.writeWorkers = writeWorkers
        self.logger = logger
    }

    /// On the event loop: everything that can be refused without the database is refused here,
    /// before anything is queued.
    func startClone(_ request: HTTPRequest, responder: HTTPResponder) throws {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        try request.requireJSONBody()
        let clone = try options.cloneRequest(request, entity: entity, id: id)
        // Planned once: the job copies this plan, and nothing re-checks what it checked.
        let plan: ClonePlan
        do {
            plan = try engine.plan(clone)
        } catch {
            throw Problem.from(error) ?? Problem.internalError()
        }
        let key = request.headers["Idempotency-Key"]
        if let key { try CloneIdempotency.validate(key) }
        // Stored and compared only with a key: a SHA-256 of the body is not made for nothing.
        let fingerprint = key.map { _ in CloneIdempotency.fingerprint(request) } ?? ""
        // Admitted before anything is queued, given back when the job has finished (or when no
        // job was started after all).
        try admission.admit(bytes: request.body.count)
        let async = request.headers.containsPercentDecodedToken("respond-async", in: "Prefer") && !clone.dryRun
        if async {
            writeWorkers.submit { [self] in
                do {
                    responder.respond(try asynchronous.enqueue(plan, request: request, key: key, fingerprint: fingerprint))
                } catch {
                    responder.respond(problemResponse(for: error, request: request))
                }
            }
        } else if let key {
            writeWorkers.submit { [self] in
                let answer: HTTPResponse?
                do {
                    answer = try idempotency.claimAlone(key, fingerprint: fingerprint, request: request)
                } catch {
                    answer = problemResponse(for: error, request: request)
                }
                if let answer {
                    admission.release(bytes: request.body.count)
                    responder.respond(answer)
                } else {
                    synchronous.run(plan, entity: entity, request: request, key: key, fingerprint: fingerprint, responder: responder)
                }
            }
        } else {
            synchronous.run(plan, entity: entity, request: request, key: nil, fingerprint: fingerprint, responder: responder)
        }
    }

    private func problemResponse(for error: any Error, request: HTTPRequest) -> HTTPResponse {
        Problem.response(reporting: error, request: request, during: .write, logger: logger)
    }
}
