import ClonerModel
import ClonerStore
import Foundation

/// Clones objects of one store. Each clone is planned once from the model (`ClonePlan`, no object
/// read), then copied by the store in one write transaction that the clone's job owns.
public final class CloneEngine: Sendable {
    public let store: IncrementalStore
    /// On a store that takes one writer at a time (SQLite), every job's private queue targets this
    /// one serial queue, so waiting jobs are run one after another by the thread that ran the last
    /// — instead of each parking a thread of its own on the store's writer gate, to be woken in
    /// turn, which made a small clone cost several context switches more than a create.
    /// Nil where writes run side by side (PostgreSQL).
    private let writerQueue: DispatchQueue?

    /// Jobs past `maximumRunning` wait here for their turn, in arrival order.
    public let runQueue: CloneRunQueue
    /// The plans' model-wide part, made once (`ClonePlan.ModelRules`).
    private let modelRules: ClonePlan.ModelRules

    /// The default number of clone jobs running at once: on a store with one writer, a few (they
    /// take turns on the writer queue anyway; the next is ready the moment the last commits); on
    /// one with concurrent writers, all but two of the pool's connections, so reads and other
    /// writes still find one while clones run.
    public static func defaultMaximumRunning(for store: IncrementalStore, poolSize: Int) -> Int {
        store.allowsConcurrentWrites ? max(2, poolSize - 2) : 4
    }

    public init(store: IncrementalStore, maximumRunning: Int? = nil) {
        self.store = store
        self.modelRules = ClonePlan.ModelRules(model: store.schema.model)
        self.writerQueue = store.allowsConcurrentWrites ? nil : DispatchQueue(label: "cloner.clone.writer", qos: .userInitiated)
        self.runQueue = CloneRunQueue(
            maximumRunning: maximumRunning
                ?? CloneEngine.defaultMaximumRunning(for: store, poolSize: IncrementalStore.defaultMaximumConnections))
    }

    /// How many jobs can make progress side by side: the running ones on a store with concurrent
    /// writers, one on a store with a single writer. Admission divides the queue's work by it.
    public var parallelism: Int { store.allowsConcurrentWrites ? runQueue.maximumRunning : 1 }

    /// Checks a request against the model and plans it, without touching the store: a bad
    /// `exclude` or `set` is refused before anything is queued.
    public func plan(_ request: CloneRequest) throws(CloneError) -> ClonePlan {
        try ClonePlan(request: request, schema: store.schema, rules: modelRules)
    }

    /// Plans and runs one clone on the calling thread; nothing is written if it throws.
    public func clone(_ request: CloneRequest, progress: GraphCopyProgress = GraphCopyProgress()) throws -> CloneResult {
        let plan = try plan(request)
        return try store.write { context in
            try CloneEngine.copy(plan, in: context, now: Date(), progress: progress)
        }
    }

    /// Starts a clone on its own private serial queue (once `runQueue` gives it its turn) and
    /// returns at once. The job opens one write
    /// transaction there and runs, in it: `inTransactionBefore` (an idempotency replay check, say —
    /// throwing ends the job with that error and writes nothing), the copy, then
    /// `inTransactionAfter` with the result (an idempotency answer, a job row): all commit together
    /// or none does. `completion` runs on the job's queue once it has committed or rolled back.
    /// `starting` runs on the job's queue before its transaction opens, for what others must see
    /// at once (that the job runs) and so must not wait for the clone's commit; throwing ends the
    /// job with that error before it opens a transaction (a job cancelled while it waited).
    @discardableResult
    public func start(
        _ plan: ClonePlan, jobID: String = UUID.random().uuidString.lowercased(),
        starting: @escaping @Sendable () throws -> Void = {},
        inTransactionBefore: @escaping @Sendable (any StoreContext) throws -> Void = { _ in },
        inTransactionAfter: @escaping @Sendable (any StoreContext, CloneResult) throws -> Void = { _, _ in },
        completion: @escaping @Sendable (CloneJob) -> Void = { _ in }
    ) -> CloneJob {
        let job = CloneJob(id: jobID, plan: plan, store: store, target: writerQueue)
        let runQueue = runQueue
        runQueue.enqueue {
            job.start(starting: starting, before: inTransactionBefore, after: inTransactionAfter) { job in
                runQueue.finished(ran: job.ranFor)
                completion(job)
            }
        }
        return job
    }

    /// Plans `request` and starts it as `start(_:jobID:…)` does.
    @discardableResult
    public func start(
        _ request: CloneRequest, jobID: String = UUID.random().uuidString.lowercased(),
        completion: @escaping @Sendable (CloneJob) -> Void = { _ in }
    ) throws(CloneError) -> CloneJob {
        start(try plan(request), jobID: jobID, completion: completion)
    }

    /// The store's copy of `plan` in `context`, its errors said in the clone's terms.
    static func copy(_ plan: ClonePlan, in context: any StoreContext, now: Date, progress: GraphCopyProgress) throws -> CloneResult {
        let request = plan.request
        let copied: GraphCopyResult
        do {
            copied = try context.copyGraph(plan.copy, now: now, progress: progress)
        } catch let error as StoreError {
            throw cloneError(error, request: request)
        }
        // Each copy's root remembers its source, in the clone's transaction (a dry run wrote
        // nothing to remember).
        if !request.dryRun {
            try context.recordClones(entity: request.entity, sourceID: request.id, cloneIDs: copied.cloneIDs, at: now)
        }
        let clones = copied.cloneIDs.map { CloneResult.ObjectRef(entity: request.entity, id: $0) }
        return CloneResult(
            source: .init(entity: request.entity, id: request.id),
            clone: .init(entity: request.entity, id: copied.cloneIDs.first ?? 0),
            clones: request.copies == nil ? nil : clones,
            created: copied.created, linked: copied.linked,
            ids: request.copies == nil ? copied.ids?.first : nil,
            copyIDs: request.copies == nil ? nil : copied.ids, dryRun: request.dryRun,
            values: copied.suffixedValues.isEmpty ? nil : copied.suffixedValues,
            conflicts: copied.clashes.isEmpty ? nil : copied.clashes)
    }

    /// A store error in the clone's terms (a store error with no such meaning as it is).
    private static func cloneError(_ error: StoreError, request: CloneRequest) -> any Error {
        switch error {
        case let .notFound(entity, id) where entity == request.entity && id == request.id:
            return CloneError.rootNotFound(entity: entity, id: id)
        case let .missingRootLink(relationship, copy, message):
            // The request's own words: `set.tags`, or `copies[2].set.template`.
            let field = (copy.map { "copies[\($0)]." } ?? "") + "set.\(relationship)"
            return CloneError.invalidRequest(field: field, message: message)
        case let .tooLarge(objects, limit):
            return CloneError.tooLarge(objects: objects, limit: limit)
        case let .uniqueViolation(entity, attribute):
            return CloneError.conflict(entity: entity, attribute: attribute, atRoot: entity == request.entity)
        case let .uniqueTogetherViolation(entity, attributes):
            return CloneError.conflictTogether(entity: entity, attributes: attributes, atRoot: entity == request.entity)
        case let .inCopy(index, inner):
            guard let mapped = cloneError(inner, request: request) as? CloneError else { return error }
            return CloneError.inCopy(index: index, error: mapped)
        default:
            return error
        }
    }
}
