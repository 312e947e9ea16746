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
    /// `Idempotency-Key` reservations (one key space with the clones') and `Prefer: respond-async`
    /// jobs, run as the clones' are.
    let runner: JobRunner
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
        runner: JobRunner, bufferedImportBytes: Int, maximumValueBytes: Int, concurrentImports: Int,
        metrics: ServiceMetrics
    ) {
        self.model = model
        self.store = store
        self.logger = logger
        self.maximumObjects = maximumObjects
        self.readWorkers = readWorkers
        self.writeWorkers = writeWorkers
        self.runner = runner
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
        let key = request.headers.clientValue(.idempotencyKey)
        if let key { try Idempotency.validate(key) }
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
        let operation = IdempotentOperation(runner.idempotency, request: request, key: key, fingerprint: digest.finish())
        let document = importer
        let store = self.store
        let collection = entity.collection
        if request.headers.containsClientToken("respond-async", in: .prefer) && !options.dryRun {
            // The key is claimed with the job row, as for a clone.
            let work = GraphImportJobWork(document: document, collection: collection, store: store, writeWorkers: writeWorkers, slot: slot)
            return try await onWriteWorker { [runner] in try runner.enqueue(work, operation: operation).response }
        }
        if let answer = try await onWriteWorker({ try operation.claim() }) { return answer }
        defer { slot.release() }
        do {
            return try await onWriteWorker {
                try store.write { context in
                    try operation.hold(in: context)
                    let outcome = try document.run(in: context, now: Date())
                    let response = GraphTravelController.response(outcome, collection: collection)
                    try operation.keep(response, in: context)
                    return response
                }
            }
        } catch {
            operation.release()
            throw error
        }
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
