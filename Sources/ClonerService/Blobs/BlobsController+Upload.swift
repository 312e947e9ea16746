import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

extension BlobsController {
    // MARK: PUT /{collection}/{id}/{attribute}

    /// Streams a new value in (docs/architecture.md#shared-blobs): each chunk is hashed and
    /// written to a pending blob as it arrives, in a short transaction of its own, so neither the
    /// process nor the single SQLite writer holds the upload; at the end one transaction gives the
    /// blob its key (or finds an equal one) and points the record at it. `If-Match` as for PATCH.
    func upload(_ request: HTTPRequest, _ body: HTTPRequestBody, writeWorkers: StoreWorkers) async throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        let attribute = try binaryAttribute(request, of: entity)
        let expected = try RecordsController.expectedVersion(request)
        let store = self.store
        try await checkPreconditions(entity: entity.name, id: id, expected: expected)
        let share = try admit(body)
        defer { _ = uploadBudget.resize(from: share, to: 0) }

        var key = Data(count: 32)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        let pending = key
        try await Self.run(on: writeWorkers) { try store.write { try $0.beginUpload(key: pending) } }
        do {
            let (hash, total) = try await storeChunks(of: body, pending: pending, writeWorkers: writeWorkers)
            let version = try await Self.run(on: writeWorkers) {
                try store.write { context -> Int64 in
                    try context.finishUpload(key: pending, hash: hash, size: total)
                    return try context.setBlob(entity: entity.name, id: id, attribute: attribute.name, hash: hash, expectedVersion: expected)
                }
            }
            var writer = JSONWriter(capacity: 160)
            writer.beginObject()
            writer.key("entity"); writer.string(entity.name)
            writer.key("id"); writer.integer(id)
            writer.key("attribute"); writer.string(attribute.name)
            writer.key("size"); writer.integer(total)
            writer.key("sha256"); writer.string(hash.lowercaseHex)
            writer.key("_version"); writer.integer(version)
            writer.endObject()
            return HTTPResponse.json(writer.bytes, headers: ["ETag": Self.entityTag(BlobReference(hash: hash, size: total))])
        } catch {
            // Best effort: a pending blob left by a failure is what `check-store` reports.
            try? await Self.run(on: writeWorkers) { try store.write { try $0.discardUpload(key: pending) } }
            if let problem = Problem.from(error, during: .write) { throw problem }
            throw error
        }
    }

    /// Hashes the body and writes it to pending blob `pending` a chunk at a time; its hash and size.
    private func storeChunks(of body: HTTPRequestBody, pending: Data, writeWorkers: StoreWorkers) async throws -> (Data, Int64) {
        let store = self.store
        let digest = BlobDigest()
        var buffer = UploadChunkBuffer()
        var size: Int64 = 0
        var number: Int64 = 0
        func flush(_ count: Int) async throws {
            let chunk = buffer.take(count), index = number
            try await Self.run(on: writeWorkers) { try store.write { try $0.appendUpload(key: pending, number: index, bytes: chunk) } }
            number += 1
        }
        for try await piece in body {
            digest.update(piece)
            size += Int64(piece.count)
            buffer.append(piece)
            while buffer.count >= StoreSchema.blobChunkSize { try await flush(StoreSchema.blobChunkSize) }
        }
        // Every blob has chunk 0: an empty value is one empty chunk.
        if buffer.count > 0 || number == 0 { try await flush(buffer.count) }
        return (digest.finish(), size)
    }

    /// Takes the upload's share of `maxBufferedUploadBytes` before its body is read, or refuses it
    /// with a 503 (RFC 9110 §15.6.4, with `Retry-After`): the service is out of room for now, and
    /// a client told so before it sends wastes no upload. The share is what the upload may hold at
    /// worst — its unwritten chunk and the body the connection queues for it while a chunk is
    /// written — so nothing is refused mid-body; a `Content-Length` below that bounds it lower.
    private func admit(_ body: HTTPRequestBody) throws -> Int {
        let length = body.expectedLength ?? .max
        // The unwritten chunk holds at most one piece past its end, and one more while copied.
        let share = min(length, StoreSchema.blobChunkSize + 2 * HTTPRequestBody.maximumPiece) + min(length, body.maximumQueuedBytes)
        guard uploadBudget.resize(from: 0, to: share) else {
            throw Problem(
                code: .serviceUnavailable,
                detail:
                    "uploads in flight hold \(uploadBudget.inUse) bytes and this one may need \(share) (maxBufferedUploadBytes: \(uploadBudget.limit)); retry shortly"
            )
        }
        return share
    }

    /// A missing record (404) or a stale `If-Match` (412) is answered before the body is read:
    /// the version is known from the record alone, and RFC 9110 §13.2.1 evaluates preconditions
    /// before the method's semantics. The body is never asked for, so a client that waits for
    /// `100 Continue` (§10.1.1) gets the final answer instead and sends nothing; one that sent
    /// the body anyway has it read away or the connection closed, as for every early answer. The
    /// check is repeated in the final transaction, for a write that lands while the body arrives.
    private func checkPreconditions(entity: String, id: Int64, expected: Int64?) async throws {
        let store = self.store
        let version = try await Self.run(on: readWorkers) { try store.read { try $0.version(entity: entity, id: id) } }
        guard let version else { throw Problem.notFound("\(entity) \(id) does not exist") }
        if let expected, expected != version {
            // Worded as the final transaction's refusal (StoreError.versionConflict).
            throw Problem.preconditionFailed("\(entity) \(id) is at version \(version), not \(expected) (If-Match)")
        }
    }

    /// `body` on one of `workers`' queues: store calls block their thread, which must be neither
    /// an event loop nor one of Swift concurrency's few.
    static func run<T: Sendable>(on workers: StoreWorkers, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            workers.submit { continuation.resume(with: Result { try body() }) }
        }
    }
}
