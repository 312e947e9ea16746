import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// `POST /{collection}/{id}/clone` (docs/architecture.md#http-contract): reads the options, plans
/// the clone, holds a clone admission for it, and hands it to the runner the request asks for —
/// answered when it commits (`SynchronousCloneRunner`), or at once with a job that
/// `GET /jobs/{id}` reports on (`Prefer: respond-async`, `JobRunner` with a `CloneJobWork`). An
/// `Idempotency-Key` is claimed first (`IdempotentOperation`).
final class ClonesController: Sendable {
    let model: DataModel
    let engine: CloneEngine
    let options: CloneOptionsParser
    /// Whether a clone may wait for its turn, or the service is truly overloaded (503).
    let admission: CloneAdmission
    let idempotency: Idempotency
    let synchronous: SynchronousCloneRunner
    /// Runs `Prefer: respond-async` clones as jobs.
    let runner: JobRunner
    let metrics: ServiceMetrics
    /// Where key claims and job rows are written: off the event loop.
    let writeWorkers: StoreWorkers
    let logger: Logger

    init(
        model: DataModel, engine: CloneEngine, metrics: ServiceMetrics, logger: Logger,
        maximumObjects: Int, maximumCopies: Int, maximumSetBytes: Int, maximumValues: Int, admission: CloneAdmission, runner: JobRunner,
        writeWorkers: StoreWorkers
    ) {
        self.model = model
        self.engine = engine
        self.options = CloneOptionsParser(
            maximumObjects: maximumObjects, maximumCopies: maximumCopies, maximumSetBytes: maximumSetBytes, maximumValues: maximumValues)
        self.admission = admission
        self.idempotency = runner.idempotency
        self.synchronous = SynchronousCloneRunner(engine: engine, metrics: metrics, logger: logger, admission: admission)
        self.runner = runner
        self.metrics = metrics
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
        // The key checked, and the body's digest made only when a key came.
        let operation = try IdempotentOperation(idempotency, request: request)
        // Admitted before anything is queued, given back when the job has finished (or when no
        // job was started after all).
        try admission.admit(bytes: request.body.count)
        let async = request.headers.containsClientToken("respond-async", in: .prefer) && !clone.dryRun
        if async {
            let work = CloneJobWork(plan: plan, engine: engine, metrics: metrics, admission: admission, body: request.body)
            writeWorkers.submit { [self] in
                let response: HTTPResponse
                do {
                    let outcome = try runner.enqueue(work, operation: operation)
                    if case .answered = outcome { admission.release(bytes: request.body.count) }
                    response = outcome.response
                } catch {
                    admission.release(bytes: request.body.count)
                    response = problemResponse(for: error, request: request)
                }
                responder.respond(response)
            }
        } else if operation.key != nil {
            writeWorkers.submit { [self] in
                let answer: HTTPResponse?
                do {
                    answer = try operation.claim()
                } catch {
                    answer = problemResponse(for: error, request: request)
                }
                if let answer {
                    admission.release(bytes: request.body.count)
                    responder.respond(answer)
                } else {
                    synchronous.run(plan, entity: entity, operation: operation, responder: responder)
                }
            }
        } else {
            synchronous.run(plan, entity: entity, operation: operation, responder: responder)
        }
    }

    private func problemResponse(for error: any Error, request: HTTPRequest) -> HTTPResponse {
        Problem.response(reporting: error, request: request, during: .write, logger: logger)
    }
}
