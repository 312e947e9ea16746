import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import ClonerTravel
import Dispatch
import Foundation
import Logging

/// `GET /{collection}/{id}/export` and `POST /{collection}/import`
/// (docs/architecture.md#graphs-that-travel): a graph written as a `GraphFormat` document, and a
/// document created as a graph with new ids.
final class GraphTravelController: Sendable {
    let model: DataModel
    let store: IncrementalStore
    let logger: Logger
    /// `maxObjectsPerClone`: an export walks and an import creates no more objects than a clone may.
    let maximumObjects: Int
    let readWorkers: StoreWorkers
    let writeWorkers: StoreWorkers
    /// The clones' `Idempotency-Key` reservations, which an import shares (one key space).
    let clones: ClonesController
    /// Where an asynchronous import shows while it runs, beside the clone jobs.
    let jobs: JobRegistry
    /// What all imports in flight may hold for their unfinished lines (`maxBufferedImportBytes`):
    /// a line — one object, its binary values as base64 — may be up to
    /// 256 MiB, so one client sending long lines slowly on many connections could otherwise make
    /// the service hold gigabytes.
    let lineBudget: ByteBudget
    /// `http.maxBodyBytes`: an import's text and json values are no larger than a create's.
    let maximumValueBytes: Int
    /// `maxConcurrentImports`: the imports that read, check and write at once; the rest wait.
    let importSlots: ImportSlots

    init(
        model: DataModel, store: IncrementalStore, logger: Logger, maximumObjects: Int, readWorkers: StoreWorkers, writeWorkers: StoreWorkers,
        clones: ClonesController, jobs: JobRegistry, bufferedImportBytes: Int, maximumValueBytes: Int, concurrentImports: Int,
        metrics: ServiceMetrics
    ) {
        self.model = model
        self.store = store
        self.logger = logger
        self.maximumObjects = maximumObjects
        self.readWorkers = readWorkers
        self.writeWorkers = writeWorkers
        self.clones = clones
        self.jobs = jobs
        self.lineBudget = ByteBudget(limit: bufferedImportBytes) { metrics.setImportLineBytes($0) }
        self.maximumValueBytes = maximumValueBytes
        self.importSlots = ImportSlots(count: concurrentImports, metrics: metrics)
    }

    /// Every `exclude` query value, each a comma-separated list (`?exclude=data,Item.tags`).
    static func exclusions(_ request: HTTPRequest) -> [String] {
        request.queryItems.filter { $0.name == "exclude" }.flatMap { $0.value.split(separator: ",").map(String.init) }
    }

    static func flag(_ request: HTTPRequest, _ name: String) throws(Problem) -> Bool {
        let values = request.queryItems.filter { $0.name == name }
        guard let item = values.first else { return false }
        guard values.count == 1 else { throw Problem.validationFailed([FieldError(field: name, message: "given more than once")]) }
        switch item.value {
        case "true", "": return true
        case "false": return false
        default: throw Problem.validationFailed([FieldError(field: name, message: "expected true or false, got \(item.value)")])
        }
    }

    static func checkQuery(_ request: HTTPRequest, allowed: Set<String>) throws(Problem) {
        let unknown = request.queryItems.map(\.name).filter { !allowed.contains($0) }
        guard unknown.isEmpty else {
            throw Problem.validationFailed(
                unknown.map { FieldError(field: $0, message: "not a query parameter of this route; it takes \(allowed.sorted().joined(separator: ", "))") })
        }
    }

    // MARK: Export

    /// Checks the request, the root and the spool budget on a read worker, then answers a streamed
    /// document. Its producer waits its turn among `spools.producers`, then reads the whole graph
    /// inside one read transaction (one consistent snapshot) at store speed into the export's
    /// spool, never waiting for the client: the transaction and its pooled connection end with
    /// the read. The response follows the spool as it grows, as fast as the client takes it.
    func export(
        _ request: HTTPRequest, spools: ExportSpools, responder: HTTPResponder, failed: @escaping @Sendable (any Error) -> Void
    ) throws {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        try GraphTravelController.checkQuery(request, allowed: ["exclude"])
        let plan: ClonePlan
        do {
            plan = try ClonePlan(
                request: CloneRequest(
                    entity: entity.name, id: id, exclude: GraphTravelController.exclusions(request),
                    maximumObjects: maximumObjects), schema: store.schema)
        } catch {
            throw Problem.from(error) ?? Problem.internalError()
        }
        let store = self.store
        let logger = self.logger
        readWorkers.submit {
            let spool: ExportSpool
            do {
                guard try store.read({ try $0.version(entity: entity.name, id: id) }) != nil else {
                    throw CloneError.rootNotFound(entity: entity.name, id: id)
                }
                spool = try spools.open()
            } catch {
                failed(error)
                return
            }
            let reader = ExportSpool.Reader(spool)
            spools.producers.submit {
                let failure = spool.produce { emit in
                    _ = try store.read { context in try GraphExporter(plan: plan).run(in: context, emit: emit) }
                }
                if let failure {
                    logger.warning("export cut short", metadata: ["request_id": "\(request.id)", "error": "\(failure)"])
                }
            }
            var headers = HTTPHeaders()
            headers.add("Content-Type", GraphFormat.mediaType)
            headers.add("Content-Disposition", "attachment; filename=\"\(entity.collection)-\(id).ndjson\"")
            responder.respond(.streaming(headers: headers) { writer in try await reader.send(to: writer) })
        }
    }

    // MARK: Import

    /// The largest import body: a document is streamed and checked a chunk at a time, so this
    /// bounds the work one request can ask for, not a buffer (far above the JSON body limit).
    static let maximumImportBytes = 1 << 30

    /// The body as a document, checked line by line as its chunks arrive (before any write), then
    /// written in one write transaction on a write worker.
    func importGraph(_ request: HTTPRequest, body: HTTPRequestBody) async throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        try GraphTravelController.checkQuery(request, allowed: ["dryRun", "returnIds", "createMissing", "exclude"])
        let type = request.headers["Content-Type"]?.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type, GraphFormat.acceptedMediaTypes.contains(type) else {
            throw Problem(
                code: .unsupportedMediaType,
                detail: "expected Content-Type \(GraphFormat.mediaType) (or application/x-ndjson), got \(request.headers["Content-Type"] ?? "none")")
        }
        let options = GraphImportOptions(
            dryRun: try GraphTravelController.flag(request, "dryRun"), returnIDs: try GraphTravelController.flag(request, "returnIds"),
            createMissing: try GraphTravelController.flag(request, "createMissing"), exclude: GraphTravelController.exclusions(request),
            maximumObjects: maximumObjects, maximumValueBytes: maximumValueBytes)
        let key = request.headers["Idempotency-Key"]
        if let key { try CloneIdempotency.validate(key) }
        var importer = try GraphImporter(schema: store.schema, root: entity, options: options)
        // Its turn first: the body is read only by an import that may run, so the waiting ones
        // hold a paused connection, not a growing spool. Given back below (or by the job), and
        // when it goes, on any path that throws.
        let slot = await importSlots.acquire()
        defer { withExtendedLifetime(slot) {} }
        // What the request asks for, to tell a retry from another request reusing the key: the
        // method, the target with its query (the options), and the document.
        let digest = StreamingDigest()
        digest.update(Array("\(request.method.rawValue) \(request.target)\n".utf8))
        // The unfinished line's memory counts against what all imports may hold; it is given
        // back as lines end, and whatever becomes of the request.
        var held = 0
        defer { _ = lineBudget.resize(from: held, to: 0) }
        for try await chunk in body {
            try importer.feed(chunk)
            if key != nil { digest.update(chunk) }
            let holding = importer.heldLineBytes
            guard lineBudget.resize(from: held, to: holding) else {
                throw Problem(
                    code: .serviceUnavailable,
                    detail:
                        "imports in flight hold \(lineBudget.inUse) bytes of unfinished lines and this one would need \(holding) (maxBufferedImportBytes: \(lineBudget.limit)); retry shortly",
                    field: "body")
            }
            held = holding
        }
        try importer.finish()
        let fingerprint = digest.finish()
        if let key,
            let answer = try await onWriteWorker({ [clones] in
                try clones.idempotency.claimAlone(key, fingerprint: fingerprint, request: request)
            })
        {
            return answer
        }
        let document = importer
        let store = self.store
        let owner = clones.idempotency.leases.replicaID
        let collection = entity.collection
        if request.headers.containsPercentDecodedToken("respond-async", in: "Prefer") && !options.dryRun {
            return try await enqueueImport(document, collection: collection, key: key, fingerprint: fingerprint, slot: slot)
        }
        defer { slot.release() }
        do {
            return try await onWriteWorker {
                try store.write { context in
                    if let key, try !context.holdIdempotencyReservation(key, owner: owner) {
                        throw CloneIdempotency.ReservationLost(what: "Idempotency-Key")
                    }
                    let outcome = try document.run(in: context, now: Date())
                    let response = GraphTravelController.response(outcome, collection: collection)
                    if let key {
                        // Committed with the import, so a retry after a crash either finds both or neither.
                        try context.saveIdempotencyRecord(
                            IdempotencyRecord(
                                key: key, fingerprint: fingerprint, status: response.status.code,
                                location: response.headers["Location"], body: Data(response.body)))
                    }
                    return response
                }
            }
        } catch {
            if let key { clones.idempotency.release(key) }
            throw error
        }
    }

    /// `Prefer: respond-async`: the job row (and the key's answer) is committed before the 202, as
    /// for a clone, so `GET /jobs/{id}` finds it on every replica; the import then runs on a write
    /// worker and records its answer (or its problem) in the job row, in its own transaction.
    /// Until then it is in the job registry, which answers its live progress and makes the
    /// shutdown drain wait for it.
    private func enqueueImport(
        _ document: GraphImporter, collection: String, key: String?, fingerprint: String, slot: ImportSlot
    ) async throws -> HTTPResponse {
        let store = self.store
        let leases = clones.idempotency.leases
        let owner = leases.replicaID
        let jobID = UUID.random().uuidString.lowercased()
        let location = "/jobs/\(jobID)"
        let queued = JobsController.jobJSON(id: jobID, status: .queued, planned: 0, written: 0, result: nil, error: nil)
        var described = JSONWriter(capacity: 64)
        described.beginObject()
        described.key("import"); described.string("/\(collection)/import")
        described.endObject()
        let requestJSON = Data(described.bytes)
        do {
            try await onWriteWorker {
                try store.write { context in
                    if let key, try !context.holdIdempotencyReservation(key, owner: owner) {
                        throw CloneIdempotency.ReservationLost(what: "Idempotency-Key")
                    }
                    try context.saveJob(JobRecord(id: jobID, status: .queued, request: requestJSON, owner: owner, leaseExpiresAt: leases.expiry()))
                    if let key {
                        try context.saveIdempotencyRecord(
                            IdempotencyRecord(key: key, fingerprint: fingerprint, status: 202, location: location, body: Data(queued)))
                    }
                }
            }
        } catch {
            if let key { clones.idempotency.release(key) }
            throw error
        }
        let logger = self.logger
        let jobs = self.jobs
        let job = GraphImportJob(id: jobID, planned: document.plannedObjects)
        jobs.add(job)
        writeWorkers.submit {
            defer {
                jobs.remove(jobID)
                slot.release()
            }
            do {
                _ = try store.write { try $0.markJobRunning(id: jobID, owner: owner) }
                job.markRunning()
                try store.write { context in
                    // A job another replica already failed (this one looked dead) must not run after all.
                    guard try context.holdJob(id: jobID, owner: owner) else { throw CloneIdempotency.ReservationLost(what: "job \(jobID)") }
                    let outcome = try document.run(in: context, now: Date(), progress: job.progress)
                    try context.saveJob(
                        JobRecord(
                            id: jobID, status: .succeeded, request: requestJSON, result: Data(outcome.jsonBytes()),
                            finishedAt: Date(), owner: owner))
                }
                job.finish(.succeeded)
            } catch {
                job.finish(.failed)
                let problem = Problem.from(error) ?? Problem.internalError()
                if Problem.from(error) == nil {
                    logger.error("import job failed", metadata: ["job": "\(jobID)", "error": "\(error)"])
                }
                do {
                    try store.write { context in
                        try context.saveJob(
                            JobRecord(
                                id: jobID, status: .failed, request: requestJSON, error: Data(problem.jsonBytes()),
                                finishedAt: Date(), owner: owner))
                    }
                } catch {
                    logger.error("recording a failed import job failed", metadata: ["job": "\(jobID)", "error": "\(error)"])
                }
            }
        }
        return HTTPResponse.json(queued, status: .accepted, headers: ["Location": location])
    }

    /// Runs `work` on a write worker (store calls block) and returns what it returns.
    private func onWriteWorker<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            writeWorkers.submit {
                do {
                    continuation.resume(returning: try work())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func response(_ outcome: GraphImportResult, collection: String) -> HTTPResponse {
        if outcome.result.dryRun { return .json(outcome.jsonBytes()) }
        var headers = HTTPHeaders()
        headers.add("Location", "/\(collection)/\(outcome.result.clone.id)")
        return .json(outcome.jsonBytes(), status: .created, headers: headers)
    }
}
