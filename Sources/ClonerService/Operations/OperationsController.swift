import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// The operational routes (docs/architecture.md#operations): probes, metrics, the model and the API description.
/// All are cheap and answered on the event loop; the documents are rendered once, as neither the
/// model nor the deployment can change while the process runs.
final class OperationsController: Sendable {
    static let healthyResponse = HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8))

    let store: IncrementalStore
    let metrics: ServiceMetrics
    /// The clone jobs running and waiting, for `/metrics`.
    let cloneQueue: CloneRunQueue
    /// `GET /model` and the model's ETag, rendered once: the model cannot change while running.
    let modelDocument: [UInt8]
    let modelTag: String
    /// `GET /openapi.yaml`: the description with this model's collections and schemas, rendered
    /// once; each answer only fills in its `servers` URL.
    let openAPIDocument: OpenAPIDocument.ServerURLSlot

    /// `requiresKeys`: whether the description declares the bearer-key scheme on every operation.
    init(model: DataModel, store: IncrementalStore, metrics: ServiceMetrics, cloneQueue: CloneRunQueue, requiresKeys: Bool) {
        self.store = store
        self.metrics = metrics
        self.cloneQueue = cloneQueue
        self.modelDocument = Array(model.normalizedText.utf8)
        self.modelTag = "\"\(model.fingerprint)\""
        let schema = store.schema
        self.openAPIDocument = OpenAPIDocument.ServerURLSlot(
            document: OpenAPIDocument.specialized(
                for: model,
                deployment: .init(
                    requiresKeys: requiresKeys,
                    storeName: {
                        switch store.location {
                        case .sqlite: return "SQLite"
                        case .postgreSQL: return "PostgreSQL"
                        }
                    }(),
                    filterableToOnes: { entity in
                        // A to-one declared into a hierarchy filters by its field, once for its parts.
                        var seen: Set<String> = []
                        return entity.relationships.filter { relationship in
                            guard !relationship.isToMany, case .foreignKeyOnSource = schema.storage(of: relationship) else { return false }
                            return true
                        }.map(\.fieldName).filter { seen.insert($0).inserted }
                    })))
    }

    /// Ready when not draining and the store takes writes (docs/architecture.md#signals-and-drain);
    /// when not, the reason says why — the file's permissions, a standby reached, or no database
    /// node answering during a failover.
    func readiness(isDraining: Bool) -> HTTPResponse {
        if isDraining {
            return HTTPResponse.json(Array(#"{"status":"draining"}"#.utf8), status: HTTPStatus(503))
        }
        if case .notWritable(let reason) = store.writability() {
            let body = JSONValue.object(["status": .string("store not writable"), "reason": .string(reason)])
            return HTTPResponse.json(Array(body.canonicalText.utf8), status: HTTPStatus(503))
        }
        return HTTPResponse.json(Array(#"{"status":"ready"}"#.utf8))
    }

    /// `/readyz` asks the database on PostgreSQL, which may take up to the connect timeout while no
    /// node answers: it runs here, off the event loop and apart from the request workers, so a
    /// probe neither stalls other connections nor waits behind a queue of requests.
    let probeQueue = DispatchQueue(label: "cloner.readiness")

    /// Prometheus text exposition of the service's metrics, with the pool and the clone queue
    /// read as they are now.
    func metricsResponse() -> HTTPResponse {
        metrics.observe(connections: store.connectionStatistics, cloneQueue: cloneQueue.load)
        return HTTPResponse(status: .ok, headers: ["Content-Type": ServiceMetrics.contentType], body: metrics.render())
    }

    /// The normalised model, with the fingerprint as ETag so clients can cache it.
    func modelResponse(_ request: HTTPRequest) -> HTTPResponse {
        if let tags = request.headers.clientValue(.ifNoneMatch), EntityTags.noneMatch(tags, current: modelTag) {
            return HTTPResponse(status: .notModified, headers: ["ETag": modelTag])
        }
        return HTTPResponse.json(modelDocument, headers: ["ETag": modelTag])
    }

    func openAPIResponse(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: ["Content-Type": OpenAPIDocument.contentType],
            body: openAPIDocument.document(serverURL: OpenAPIDocument.serverURL(for: request)))
    }
}
