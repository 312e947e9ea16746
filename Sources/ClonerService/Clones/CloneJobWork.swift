import ClonerClone
import ClonerStore
import Foundation

/// A clone as an asynchronous job's work (`Prefer: respond-async`, `JobRunner`): it runs like a
/// synchronous clone, on its own private serial queue in one transaction its `CloneJob` owns, and
/// its `succeeded` row commits with the copy.
struct CloneJobWork: JobWork {
    let plan: ClonePlan
    let engine: CloneEngine
    let metrics: ServiceMetrics
    /// Given back when the job has finished (the runner's caller gives it back when no job started).
    let admission: CloneAdmission
    /// The request body's size, as admitted.
    let admittedBytes: Int
    let requestJSON: Data

    var name: String { "clone" }

    init(plan: ClonePlan, engine: CloneEngine, metrics: ServiceMetrics, admission: CloneAdmission, body: [UInt8]) {
        self.plan = plan
        self.engine = engine
        self.metrics = metrics
        self.admission = admission
        self.admittedBytes = body.count
        self.requestJSON = Data(body.isEmpty ? Array("{}".utf8) : body)
    }

    func check(in context: any StoreContext) throws {
        try plan.checkTargets(in: context)
    }

    func start(_ job: AsynchronousJob) -> any RunningJob {
        let started = ContinuousClock.now
        metrics.jobStarted()
        return engine.start(
            plan, jobID: job.id,
            starting: { try job.recordRunning() },
            inTransactionBefore: { context in try job.hold(in: context) },
            inTransactionAfter: { context, result in try job.recordSuccess(result.jsonBytes(), in: context) },
            completion: { [self] clone in
                if let result = clone.result {
                    metrics.recordClone(result: .succeeded, objects: result.totalCreated, duration: ContinuousClock.now - started)
                } else {
                    metrics.recordClone(result: job.wasCancelled ? .cancelled : .failed, objects: 0, duration: ContinuousClock.now - started)
                }
                metrics.jobFinished()
                job.finish(failure: clone.result == nil ? clone.error ?? Problem.internalError() : nil)
                admission.release(bytes: admittedBytes)
            })
    }
}
