import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// A synchronous clone (the default): on its own job queue, in the job's one transaction,
/// answered when it has committed or rolled back. A key, if any, is claimed already; its answer
/// is kept in the clone's transaction, and a failed clone gives the key back (`IdempotentOperation`).
final class SynchronousCloneRunner: Sendable {
    let engine: CloneEngine
    let metrics: ServiceMetrics
    let logger: Logger
    /// Given back when the clone has finished.
    let admission: CloneAdmission

    init(engine: CloneEngine, metrics: ServiceMetrics, logger: Logger, admission: CloneAdmission) {
        self.engine = engine
        self.metrics = metrics
        self.logger = logger
        self.admission = admission
    }

    func run(_ plan: ClonePlan, entity: EntityDescription, operation: IdempotentOperation, responder: HTTPResponder) {
        let started = ContinuousClock.now
        let clone = plan.request
        let request = operation.request
        metrics.jobStarted()
        engine.start(
            plan,
            inTransactionBefore: { context in try operation.hold(in: context) },
            inTransactionAfter: { context, result in
                try operation.keep(SynchronousCloneRunner.answer(result, of: clone, in: entity), in: context)
            },
            completion: { [self] job in
                metrics.jobFinished()
                admission.release(bytes: request.body.count)
                if let result = job.result {
                    metrics.recordClone(
                        result: clone.dryRun ? .dryRun : .succeeded, objects: clone.dryRun ? 0 : result.totalCreated,
                        duration: ContinuousClock.now - started)
                    responder.respond(SynchronousCloneRunner.answer(result, of: clone, in: entity))
                } else if case StoreError.unavailable(let reason, outcomeUnknown: true)? = job.error {
                    responder.respond(answerLostCommit(operation, reason: reason, started: started))
                } else {
                    operation.release()
                    metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
                    responder.respond(Problem.response(reporting: job.error ?? Problem.internalError(), request: request, during: .write, logger: logger))
                }
            })
    }

    /// The database was lost while the clone committed: never answered as failed. With a key, its
    /// row says what happened once a primary answers — the clone's own answer if it committed;
    /// without one (or with no primary in time) the 503 says the outcome is unknown.
    private func answerLostCommit(_ operation: IdempotentOperation, reason: String, started: ContinuousClock.Instant) -> HTTPResponse {
        let request = operation.request
        switch operation.settleLostCommit() {
        case .committed(let answer):
            metrics.recordClone(result: .succeeded, objects: 0, duration: ContinuousClock.now - started)
            return answer
        case .notWritten:
            metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
            return Problem.response(
                reporting: StoreError.unavailable(reason: reason + "; nothing of this clone was kept", outcomeUnknown: false), request: request,
                during: .write, logger: logger)
        case .unknown:
            metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
            return Problem.response(
                reporting: StoreError.unavailable(reason: reason, outcomeUnknown: true), request: request, during: .write, logger: logger)
        }
    }

    /// 201 with the clone's `Location`, or 200 for a dry run (which made nothing to point at).
    static func answer(_ result: CloneResult, of clone: CloneRequest, in entity: EntityDescription) -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if !clone.dryRun { headers.set("Location", "/\(entity.collection)/\(result.clone.id)") }
        return HTTPResponse.json(result.jsonBytes(), status: clone.dryRun ? .ok : .created, headers: headers)
    }
}
