import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// Binary values as resources (docs/architecture.md#shared-blobs): `GET`/`HEAD
/// /{collection}/{id}/{attribute}` serves a binary attribute's bytes with the blob's key as its
/// strong `ETag`, single byte ranges, `If-Range` and `If-None-Match`.
final class BlobsController: Sendable {
    let model: DataModel
    let store: IncrementalStore
    /// Where the chunk reads of a streamed answer run, off the event loops and the Swift
    /// concurrency pool (a read blocks its thread for the database).
    let readWorkers: StoreWorkers
    /// What all uploads in flight may hold in memory (`maxBufferedUploadBytes`): each upload
    /// holds up to a chunk and its body's queue, and a client may open hundreds of connections.
    let uploadBudget: ByteBudget

    init(model: DataModel, store: IncrementalStore, readWorkers: StoreWorkers, bufferedUploadBytes: Int, metrics: ServiceMetrics) {
        self.model = model
        self.store = store
        self.readWorkers = readWorkers
        self.uploadBudget = ByteBudget(limit: bufferedUploadBytes) { metrics.setUploadBufferBytes($0) }
    }

    /// The binary attribute the `{attribute}` segment names; 404 naming it otherwise.
    func binaryAttribute(_ request: HTTPRequest, of entity: EntityDescription) throws(Problem) -> AttributeDescription {
        let name = request.parameter("attribute") ?? ""
        guard let attribute = entity.attribute(named: name) else {
            let binary = entity.attributes.filter { $0.type == .binary }.map(\.name)
            throw Problem(
                code: .notFound,
                detail: "\(entity.name) has no attribute \(name)"
                    + (binary.isEmpty ? "" : "; its binary attributes are " + binary.joined(separator: ", ")), field: name)
        }
        guard attribute.type == .binary else {
            throw Problem(
                code: .notFound,
                detail: "\(entity.name).\(name) is a \(attribute.type.rawValue) attribute; only binary attributes are served as bytes (read it in the record)",
                field: name)
        }
        return attribute
    }

    static func entityTag(_ reference: BlobReference) -> String { "\"\(reference.hash.lowercaseHex)\"" }

    // MARK: GET/HEAD /{collection}/{id}/{attribute}

    func download(_ request: HTTPRequest) throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        let attribute = try binaryAttribute(request, of: entity)
        let found = try store.read { context -> (exists: Bool, reference: BlobReference?) in
            guard try context.version(entity: entity.name, id: id) != nil else { return (false, nil) }
            return (true, try context.blobReference(entity: entity.name, id: id, attribute: attribute.name))
        }
        guard found.exists else { throw Problem.notFound("\(entity.name) \(id) does not exist") }
        guard let reference = found.reference else {
            throw Problem(code: .notFound, detail: "\(entity.name) \(id) has no \(attribute.name) (it is null)", field: attribute.name)
        }
        let tag = Self.entityTag(reference)
        var headers: HTTPHeaders = ["ETag": tag, "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream"]
        // RFC 9110 §13.1.2: a listed tag (weakly compared) or `*` means the client has it.
        if let tags = request.headers.clientValue(.ifNoneMatch), EntityTags.noneMatch(tags, current: tag) {
            return HTTPResponse(status: .notModified, headers: ["ETag": tag])
        }
        var status = HTTPStatus.ok
        var range = 0..<reference.size
        // RFC 9110 §14.2: Range is defined for GET only (a HEAD answers as the GET would).
        if request.method == .get || request.method == .head, Self.ifRangeHolds(request.headers.clientValue(.ifRange), tag: tag) {
            switch ByteRange(header: request.headers.clientValue(.range), size: reference.size) {
            case .whole: break
            case .part(let part):
                status = HTTPStatus(206)
                range = part
                headers.set("Content-Range", "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(reference.size)")
            case .unsatisfiable:
                var response = Problem(
                    code: Problem.Code("range_not_satisfiable"), status: 416,
                    detail: "the Range asks for bytes past the end of \(entity.name).\(attribute.name) (\(reference.size) bytes)",
                    field: "Range"
                ).response(for: request)
                response.headers.set("Content-Range", "bytes */\(reference.size)")
                return response
            }
        }
        if request.method == .head {
            // RFC 9110 §9.3.2, §8.6: the head a GET would get, with the length of its body.
            return HTTPResponse.streaming(status: status, headers: headers, length: Int(range.count)) { _ in }
        }
        if range.count <= Int64(StoreSchema.blobChunkSize) {
            var body: [UInt8] = []
            body.reserveCapacity(Int(range.count))
            let exists = try store.read { try $0.readBlob(hash: reference.hash, range: range) { body.append(contentsOf: $0) } }
            guard exists else {
                throw Problem(code: .conflict, detail: "\(entity.name).\(attribute.name) changed while it was read; ask again", field: attribute.name)
            }
            return HTTPResponse(status: status, headers: headers, body: body)
        }
        // Larger: one chunk at a time, each in a short read of its own — a blob never changes,
        // so the parts fit together without one long transaction, and no store connection waits
        // on the client. The length is known, so the client learns it; should the blob go
        // mid-way, the body ends short and the server closes the connection.
        let store = self.store, workers = readWorkers
        let chunk = Int64(StoreSchema.blobChunkSize)
        let wanted = range
        return HTTPResponse.streaming(status: status, headers: headers, length: Int(range.count)) { writer in
            var next = wanted.lowerBound
            while next < wanted.upperBound {
                let offset = next
                let end = min(wanted.upperBound, (offset / chunk + 1) * chunk)
                let part: [UInt8] = try await withCheckedThrowingContinuation { continuation in
                    workers.submit {
                        continuation.resume(
                            with: Result {
                                var bytes: [UInt8] = []
                                let exists = try store.read { try $0.readBlob(hash: reference.hash, range: offset..<end) { bytes.append(contentsOf: $0) } }
                                guard exists else { throw BlobVanished() }
                                return bytes
                            })
                    }
                }
                try await writer.write(part)
                next = end
            }
        }
    }

    /// Whether a `Range` may be honoured under `If-Range` (RFC 9110 §13.1.5): without the field,
    /// yes; with it, only when it names the current value by a strong entity tag, compared
    /// strongly — otherwise the client's partial copy is of another value, and stitching part of
    /// this one to it would make a corrupt file, so the whole value goes instead. The value's only
    /// validator is its `ETag` (there is no `Last-Modified`), so a date never matches, nor does a
    /// weak tag (§8.8.3.2: weak tags never compare strongly).
    static func ifRangeHolds(_ value: String?, tag: String) -> Bool {
        guard let value else { return true }
        return value.trimmingCharacters(in: .whitespaces) == tag
    }

    /// The blob went (its last reference was replaced) during a streamed answer: the body is cut.
    struct BlobVanished: Error {}
}
