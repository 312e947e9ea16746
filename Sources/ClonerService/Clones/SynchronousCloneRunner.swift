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
                } else {
                    operation.release()
                    metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
                    responder.respond(Problem.response(reporting: job.error ?? Problem.internalError(), request: request, during: .write, logger: logger))
                }
            })
    }

    /// 201 with the clone's `Location`, or 200 for a dry run (which made nothing to point at).
    static func answer(_ result: CloneResult, of clone: CloneRequest, in entity: EntityDescription) -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if !clone.dryRun { headers.set("Location", "/\(entity.collection)/\(result.clone.id)") }
        return HTTPResponse.json(result.jsonBytes(), status: clone.dryRun ? .ok : .created, headers: headers)
    }
}
