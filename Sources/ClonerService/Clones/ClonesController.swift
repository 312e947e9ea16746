import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// `POST /{collection}/{id}/clone` (docs/architecture.md#http-contract): parses the options, plans the clone, holds a
/// clone admission for it, and runs it on the engine — answered when it commits, or at once with a job
/// (`Prefer: respond-async`) that `GET /jobs/{id}` reports on.
final class ClonesController: Sendable {
    static let maximumIdempotencyKeyLength = 255

    let model: DataModel
    let store: IncrementalStore
    let engine: CloneEngine
    let metrics: ServiceMetrics
    let logger: Logger
    /// `maxObjectsPerClone` and `maxCopies`, handed to every `CloneRequest`.
    let maximumObjects: Int
    let maximumCopies: Int
    /// Whether a clone may wait for its turn, or the service is truly overloaded (503).
    let admission: CloneAdmission
    /// Asynchronous jobs of this process, for their live progress and the shutdown drain.
    let jobs: JobRegistry
    /// Where a `respond-async` clone records its job before answering 202.
    let writeWorkers: StoreWorkers
    /// This replica's id and lease: the owner written on reservations and job rows.
    let leases: JobLeaseKeeper

    init(model: DataModel, store: IncrementalStore, engine: CloneEngine, metrics: ServiceMetrics, logger: Logger,
         maximumObjects: Int, maximumCopies: Int, admission: CloneAdmission, jobs: JobRegistry, writeWorkers: StoreWorkers,
         leases: JobLeaseKeeper) {
        self.model = model
        self.store = store
        self.engine = engine
        self.metrics = metrics
        self.logger = logger
        self.maximumObjects = maximumObjects
        self.maximumCopies = maximumCopies
        self.admission = admission
        self.jobs = jobs
        self.writeWorkers = writeWorkers
        self.leases = leases
    }

    /// Parses the optional body `{"exclude": [...], "set": {...}, "copies": 3, "dryRun": false, "returnIds": false}`
    /// (`copies` may instead be a list of `{"set": {...}}`, one per copy; docs/architecture.md#many-copies).
    func cloneRequest(_ request: HTTPRequest, entity: EntityDescription, id: Int64) throws(Problem) -> CloneRequest {
        var clone = CloneRequest(entity: entity.name, id: id, maximumObjects: maximumObjects,
                                 maximumCopies: maximumCopies)
        guard !request.body.isEmpty else { return clone }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: request.body)
        } catch {
            throw Problem.invalidJSON(error)
        }
        guard case .object(let members) = json else {
            throw Problem.validationFailed([FieldError(field: FieldError.body, message: "the request body must be a JSON object with exclude, set, copies, dryRun, returnIds, got \(RecordJSONCoding.describe(json))")])
        }
        var errors: [FieldError] = []
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            switch (name, value) {
            case ("exclude", .array(let entries)):
                for (index, entry) in entries.enumerated() {
                    if case .string(let text) = entry { clone.exclude.append(text) } else {
                        errors.append(FieldError(field: "exclude[\(index)]", message: "expected a property name (string)"))
                    }
                }
            case ("set", .object(let values)):
                let parsed = ClonesController.setValues(values, entity: entity, prefix: "set.", errors: &errors)
                clone.set = parsed.values
                clone.setLinks = parsed.links
            case ("copies", .integer(let count)):
                // The range (1…maxCopies) is the plan's check, named `copies` there too.
                clone.copies = Int(clamping: count)
            case ("copies", .array(let entries)):
                guard !entries.isEmpty else {
                    errors.append(FieldError(field: "copies", message: "expected at least one {\"set\": {...}} entry"))
                    break
                }
                clone.copies = entries.count
                for (index, entry) in entries.enumerated() {
                    // `{}` is a copy with no overrides of its own.
                    guard case .object(let members) = entry else {
                        errors.append(FieldError(field: "copies[\(index)]", message: "expected {\"set\": {...}} or {}"))
                        continue
                    }
                    if let unknown = members.keys.sorted().first(where: { $0 != "set" }) {
                        errors.append(FieldError(field: "copies[\(index)].\(unknown)", message: "unknown member; a copy takes only set"))
                        continue
                    }
                    let values: [String: JSONValue]
                    switch members["set"] {
                    case nil: values = [:]
                    case .object(let given)?: values = given
                    case _?:
                        errors.append(FieldError(field: "copies[\(index)].set", message: "expected an object of property values"))
                        continue
                    }
                    let prefix = "copies[\(index)].set."
                    let parsed = ClonesController.setValues(values, entity: entity, prefix: prefix, errors: &errors)
                    for name in parsed.links.keys.sorted() {
                        errors.append(FieldError(field: prefix + name, message: "to-many links cannot differ per copy; set them in the request's own set"))
                    }
                    clone.copySets.append(parsed.values)
                }
            case ("dryRun", .bool(let flag)): clone.dryRun = flag
            case ("returnIds", .bool(let flag)): clone.returnIDs = flag
            case ("exclude", _): errors.append(FieldError(field: "exclude", message: "expected an array of property names"))
            case ("set", _): errors.append(FieldError(field: "set", message: "expected an object of property values"))
            case ("copies", _):
                errors.append(FieldError(field: "copies", message: "expected a positive integer, or a list of {\"set\": {...}} objects, one per copy"))
            case ("dryRun", _), ("returnIds", _): errors.append(FieldError(field: name, message: "expected true or false"))
            default: errors.append(FieldError(field: name, message: "unknown option; the options are exclude, set, copies, dryRun, returnIds"))
            }
        }
        guard errors.isEmpty else { throw Problem.validationFailed(errors) }
        return clone
    }

    /// A `set` object's values for `entity` (attributes and to-one `_id`s) and to-many links;
    /// each bad entry is an error naming `prefix` + the property (`set.name`, `copies[2].set.name`).
    static func setValues(_ values: [String: JSONValue], entity: EntityDescription, prefix: String,
                          errors: inout [FieldError]) -> (values: [String: AttributeValue], links: [String: [Int64]]) {
        var set: [String: AttributeValue] = [:]
        var links: [String: [Int64]] = [:]
        for (property, value) in values.sorted(by: { $0.key < $1.key }) {
            let field = prefix + property
            if let attribute = entity.attribute(named: property) {
                do {
                    set[property] = try RecordJSONCoding.decodeValue(value, attribute: attribute, of: entity, field: field)
                } catch {
                    errors.append(error)
                }
            } else if let relationship = entity.relationship(named: property) {
                switch (relationship.isToMany, value) {
                case (false, .integer(let target)): set[property] = .integer(target)
                case (false, .null): set[property] = .null
                case (false, _): errors.append(FieldError(field: field, message: "expected an _id (integer) or null"))
                case (true, .array(let entries)):
                    var ids: [Int64] = []
                    for entry in entries {
                        if case .integer(let target) = entry { ids.append(target) }
                    }
                    if ids.count == entries.count {
                        links[property] = ids
                    } else {
                        errors.append(FieldError(field: field, message: "expected an array of _id values"))
                    }
                case (true, _): errors.append(FieldError(field: field, message: "expected an array of _id values"))
                }
            } else {
                errors.append(FieldError(field: field, message: "\(entity.name) has no attribute or relationship named \(property)"))
            }
        }
        return (set, links)
    }

    func startClone(_ request: HTTPRequest, responder: HTTPResponder) throws {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        try request.requireJSONBody()
        let clone = try cloneRequest(request, entity: entity, id: id)
        // Planned once: the job copies this plan, and nothing re-checks what it checked.
        let plan: ClonePlan
        do {
            plan = try engine.plan(clone)
        } catch {
            throw Problem.from(error) ?? Problem.internalError()
        }
        let key = request.headers["Idempotency-Key"]
        if let key, !(1...ClonesController.maximumIdempotencyKeyLength).contains(key.utf8.count) {
            throw Problem.validationFailed([FieldError(field: "Idempotency-Key", message: "expected 1 to \(ClonesController.maximumIdempotencyKeyLength) characters")])
        }
        let fingerprint = ClonesController.fingerprint(request)
        // Admitted before anything is queued, given back when the job has finished (or, for
        // `respond-async`, when no job was started after all).
        try admission.admit(bytes: request.body.count)
        let async = request.headers.containsPercentDecodedToken("respond-async", in: "Prefer") && !clone.dryRun
        if let key {
            startReservedClone(plan, entity: entity, request: request, key: key, fingerprint: fingerprint, async: async, responder: responder)
        } else if async {
            writeWorkers.submit { [self] in
                do {
                    responder.respond(try enqueueClone(plan, entity: entity, request: request, key: key, fingerprint: fingerprint))
                } catch {
                    responder.respond(problemResponse(for: error, request: request, during: .write))
                }
            }
        } else {
            runClone(plan, entity: entity, request: request, key: key, fingerprint: fingerprint, responder: responder)
        }
    }

    /// A digest of what the request asks for, to tell a retry from a different request reusing
    /// the key (RFC draft "The Idempotency-Key HTTP Header Field", §2.2).
    static func fingerprint(_ request: HTTPRequest) -> String {
        let bytes = Array("\(request.method.rawValue) \(request.path)\n".utf8) + request.body
        return APIKeyAuthenticator.sha256(bytes).lowercaseHex
    }

    func replayResponse(_ record: IdempotencyRecord, fingerprint: String, request: HTTPRequest) -> HTTPResponse {
        guard record.fingerprint == fingerprint else {
            return Problem(code: .idempotencyKeyReused, detail: "this Idempotency-Key was used with a different request; use a new key for a new request")
                .response(requestID: request.id)
        }
        metrics.recordClone(result: .replayed, objects: 0, duration: .zero)
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Idempotent-Replayed": "true"]
        if let location = record.location { headers.set("Location", location) }
        return HTTPResponse(status: HTTPStatus(record.status), headers: headers, body: Array(record.body))
    }

    /// A synchronous clone: on its own job queue, in the job's own transaction, answered when it
    /// has committed or rolled back. The key (if any) is reserved already; the answer rides in that
    /// transaction, and a failed clone gives the key back.
    func runClone(_ plan: ClonePlan, entity: EntityDescription, request: HTTPRequest, key: String?, fingerprint: String, responder: HTTPResponder) {
        let started = ContinuousClock.now
        let clone = plan.request
        metrics.jobStarted()
        let status: HTTPStatus = clone.dryRun ? .ok : .created
        let owner = leases.replicaID
        engine.start(plan, inTransactionBefore: { context in
            if let key, try !context.holdIdempotencyReservation(key, owner: owner) { throw ReservationLost(what: "Idempotency-Key") }
        }, inTransactionAfter: { context, result in
            if let key {
                try context.saveIdempotencyRecord(IdempotencyRecord(
                    key: key, fingerprint: fingerprint, status: status.code,
                    location: clone.dryRun ? nil : "/\(entity.collection)/\(result.clone.id)", body: Data(result.jsonBytes())))
            }
        }, completion: { [self] job in
            metrics.jobFinished()
            admission.release(bytes: request.body.count)
            if let result = job.result {
                metrics.recordClone(result: clone.dryRun ? .dryRun : .succeeded, objects: clone.dryRun ? 0 : result.totalCreated,
                                    duration: ContinuousClock.now - started)
                var headers: HTTPHeaders = [:]
                if !clone.dryRun { headers.set("Location", "/\(entity.collection)/\(result.clone.id)") }
                responder.respond(HTTPResponse.json(result.jsonBytes(), status: status, headers: headers))
            } else {
                if let key { releaseIdempotencyKey(key) }
                metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
                responder.respond(problemResponse(for: job.error ?? Problem.internalError(), request: request, during: .write))
            }
        })
    }

    /// `Prefer: respond-async`: the job is recorded (and the idempotency answer with it) before the
    /// 202 goes out, so `GET /jobs/{id}` finds it even if the process dies right after. Holds a
    /// clone admission (`startClone` took it): given back here unless a job started.
    func enqueueClone(_ plan: ClonePlan, entity: EntityDescription, request: HTTPRequest, key: String?, fingerprint: String) throws -> HTTPResponse {
        var jobStarted = false
        defer { if !jobStarted { admission.release(bytes: request.body.count) } }
        let jobID = UUID.random().uuidString.lowercased()
        let location = "/jobs/\(jobID)"
        let queued = JobsController.jobJSON(id: jobID, status: .queued, planned: 0, written: 0, result: nil, error: nil)
        let requestJSON = Data(request.body.isEmpty ? Array("{}".utf8) : request.body)
        let owner = leases.replicaID
        do {
            try store.write { context in
                if let key, try !context.holdIdempotencyReservation(key, owner: owner) { throw ReservationLost(what: "Idempotency-Key") }
                try plan.checkTargets(in: context)
                try context.saveJob(JobRecord(id: jobID, status: .queued, request: requestJSON, owner: owner, leaseExpiresAt: leases.expiry()))
                if let key {
                    try context.saveIdempotencyRecord(IdempotencyRecord(key: key, fingerprint: fingerprint, status: 202, location: location, body: Data(queued)))
                }
            }
        } catch {
            if let key { releaseIdempotencyKey(key) }
            throw error
        }

        let started = ContinuousClock.now
        metrics.jobStarted()
        jobStarted = true
        let job = engine.start(plan, jobID: jobID, starting: { [store, logger] in
            // Committed at once, so every replica reads `running` while the clone runs (the
            // clone's own transaction shows nothing until it commits). Not fatal: the job row
            // still reads `queued`, and the clone goes on.
            do {
                _ = try store.write { try $0.markJobRunning(id: jobID, owner: owner) }
            } catch {
                logger.warning("recording a clone job as running failed", metadata: ["job": "\(jobID)", "error": "\(error)"])
            }
        }, inTransactionBefore: { context in
            // Holds the row (PostgreSQL: locked) while the clone runs; a job another replica
            // already failed (this one looked dead) must not run after all.
            if try !context.holdJob(id: jobID, owner: owner) { throw ReservationLost(what: "job \(jobID)") }
        }, inTransactionAfter: { context, result in
            try context.saveJob(JobRecord(id: jobID, status: .succeeded, request: requestJSON, result: Data(result.jsonBytes()), finishedAt: Date(), owner: owner))
        }, completion: { [self] job in
            if let result = job.result {
                metrics.recordClone(result: .succeeded, objects: result.totalCreated, duration: ContinuousClock.now - started)
            } else {
                metrics.recordClone(result: .failed, objects: 0, duration: ContinuousClock.now - started)
                let problem = Problem.from(job.error ?? Problem.internalError()) ?? Problem.internalError()
                if Problem.from(job.error ?? Problem.internalError()) == nil {
                    logger.error("clone job failed", metadata: ["job": "\(jobID)", "error": "\(job.error.map { "\($0)" } ?? "unknown")"])
                }
                do {
                    try store.write { context in
                        try context.saveJob(JobRecord(id: jobID, status: .failed, request: requestJSON, error: Data(problem.jsonBytes()), finishedAt: Date(), owner: owner))
                    }
                } catch {
                    logger.error("recording a failed clone job failed", metadata: ["job": "\(jobID)", "error": "\(error)"])
                }
            }
            metrics.jobFinished()
            jobs.remove(jobID)
            admission.release(bytes: request.body.count)
        })
        jobs.add(job)
        if job.finishedAt != nil { jobs.remove(jobID) }
        return HTTPResponse.json(queued, status: .accepted, headers: ["Location": location])
    }

    func problemResponse(for error: any Error, request: HTTPRequest, during operation: Problem.Operation) -> HTTPResponse {
        Problem.response(reporting: error, request: request, during: operation, logger: logger)
    }
}
