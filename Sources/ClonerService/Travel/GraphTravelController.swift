import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
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

    init(model: DataModel, store: IncrementalStore, logger: Logger, maximumObjects: Int, readWorkers: StoreWorkers, writeWorkers: StoreWorkers) {
        self.model = model
        self.store = store
        self.logger = logger
        self.maximumObjects = maximumObjects
        self.readWorkers = readWorkers
        self.writeWorkers = writeWorkers
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
            throw Problem.validationFailed(unknown.map { FieldError(field: $0, message: "not a query parameter of this route; it takes \(allowed.sorted().joined(separator: ", "))") })
        }
    }

    // MARK: Export

    /// Checks the request and the root on a read worker, then answers a streamed document whose
    /// producer runs the export inside one read transaction on a private queue of its own: one
    /// consistent snapshot, read a batch at a time, written as fast as the client takes it.
    func export(_ request: HTTPRequest, responder: HTTPResponder, failed: @escaping @Sendable (any Error) -> Void) throws {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        try GraphTravelController.checkQuery(request, allowed: ["exclude"])
        let plan: ClonePlan
        do {
            plan = try ClonePlan(request: CloneRequest(entity: entity.name, id: id, exclude: GraphTravelController.exclusions(request),
                                                       maximumObjects: maximumObjects), schema: store.schema)
        } catch {
            throw Problem.from(error) ?? Problem.internalError()
        }
        let store = self.store
        let logger = self.logger
        readWorkers.submit {
            do {
                guard try store.read({ try $0.version(entity: entity.name, id: id) }) != nil else {
                    throw CloneError.rootNotFound(entity: entity.name, id: id)
                }
            } catch {
                failed(error)
                return
            }
            var headers = HTTPHeaders()
            headers.add("Content-Type", GraphFormat.mediaType)
            headers.add("Content-Disposition", "attachment; filename=\"\(entity.collection)-\(id).ndjson\"")
            responder.respond(.streaming(headers: headers) { writer in
                let queue = DispatchQueue(label: "cloner.export", qos: .userInitiated)
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    queue.async {
                        let bridge = BlockingBodyWriter(writer)
                        do {
                            _ = try store.read { context in
                                try GraphExporter(plan: plan).run(in: context) { bytes in try bridge.write(bytes) }
                            }
                            continuation.resume()
                        } catch {
                            if !(error is HTTPBodyWriter.ConnectionClosed) {
                                logger.warning("export cut short", metadata: ["request_id": "\(request.id)", "error": "\(error)"])
                            }
                            continuation.resume(throwing: error)
                        }
                    }
                }
            })
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
            throw Problem(code: .unsupportedMediaType,
                          detail: "expected Content-Type \(GraphFormat.mediaType) (or application/x-ndjson), got \(request.headers["Content-Type"] ?? "none")")
        }
        let options = GraphImportOptions(
            dryRun: try GraphTravelController.flag(request, "dryRun"), returnIDs: try GraphTravelController.flag(request, "returnIds"),
            createMissing: try GraphTravelController.flag(request, "createMissing"), exclude: GraphTravelController.exclusions(request),
            maximumObjects: maximumObjects)
        var importer = try GraphImporter(schema: store.schema, root: entity, options: options)
        for try await chunk in body { try importer.feed(chunk) }
        try importer.finish()
        let document = importer
        let store = self.store
        let outcome = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<GraphImportResult, any Error>) in
            writeWorkers.submit {
                do {
                    continuation.resume(returning: try store.write { context in try document.run(in: context, now: Date()) })
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return GraphTravelController.response(outcome, collection: entity.collection)
    }

    static func response(_ outcome: GraphImportResult, collection: String) -> HTTPResponse {
        if outcome.result.dryRun { return .json(outcome.jsonBytes()) }
        var headers = HTTPHeaders()
        headers.add("Location", "/\(collection)/\(outcome.result.clone.id)")
        return .json(outcome.jsonBytes(), status: .created, headers: headers)
    }
}
