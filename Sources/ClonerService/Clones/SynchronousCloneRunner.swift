import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// A synchronous clone (the default): on its own job queue, in the job's one transaction,
/// answered when it has committed or rolled back. A key, if any, is claimed already; its answer
/// is saved in the clone's transaction, and a failed clone gives the key back.
final class SynchronousCloneRunner: Sendable {
    let engine: CloneEngine
    let metrics: ServiceMetrics
    let logger: Logger
    /// Given back when the clone has finished.
    let admission: CloneAdmission
    let idempotency: CloneIdempotency

    init(engine: CloneEngine, metrics: ServiceMetrics, logger: Logger, admission: CloneAdmission, idempotency: CloneIdempotency) {
        self.engine = engine
        self.metrics = metrics
        self.logger = logger
        self.admission = admission
        self.idempotency = idempotency
    }

    func run(_ plan: ClonePlan, entity: EntityDescription, request: HTTPRequest, key: String?, fingerprint: String, responder: HTTPResponder) {
        let started = ContinuousClock.now
        let clone = plan.request
        metrics.jobStarted()
        let status: HTTPStatus = clone.dryRun ? .ok : .created
        let owner = idempotency.leases.replicaID
        engine.start(
            plan,
            inTransactionBefore: { context in
                if let key, try !context.holdIdempotencyReservation(key, owner: owner) {
                    throw CloneIdempotency.ReservationLost(what: "Idempotency-Key")
                }
            },
            inTransactionAfter: { context, result in
                if let key {
                    try context.saveIdempotencyRecord(
                        IdempotencyRecord(
                            key: key, fingerprint: fingerprint, status: status.code,
                            location: clone.dryRun ? nil : "/\(entity.collection)/\(result.clone.id)", body: Data(result.jsonBytes())))
                }
            },
            completion: { [self] job in
                metrics.jobFinished()
                admission.release(bytes: request.body.count)
                if let result = job.result {
                    metrics.recordClone(
                        result: clone.dryRun ? .dryRun : .succeeded, objects: clone.dryRun ? 0 : result.totalCreated,
                        duration: ContinuousClock.now - started)
                    var headers: HTTPHeaders = [:]
                    if !clone.dryRun { headers.set("Location", "/\(entity.collection)/\(result.clone.id)") }
                    responder.respond(HTTPResponse.json(result.jsonBytes(), status: status, headers: headers))
                } else {
                    if let key { idempotency.release(key) }
                    metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
                    responder.respond(Problem.response(reporting: job.error ?? Problem.internalError(), request: request, during: .write, logger: logger))
                }
            })
    }
}
