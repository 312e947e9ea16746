import ClonerHTTP
import ClonerStore
import Foundation

/// One request's `Idempotency-Key`, if it came with one, through the life of the operation it
/// asks for: the same steps whether a clone or an import answers, synchronously or as a job.
/// Without a key every step does nothing, so an operation is written once for both cases.
///
/// A synchronous operation: `claim` (a short transaction of its own, so other requests see the
/// key taken while the operation runs), then in the operation's one transaction `hold` before
/// the work and `keep` its answer after; `release` when it failed. An asynchronous one is
/// claimed by `JobRunner` in the transaction that writes its job row.
struct IdempotentOperation: Sendable {
    let idempotency: Idempotency
    let request: HTTPRequest
    /// Nil when the request came without the header.
    let key: String?
    /// What the request asks for, to tell a retry from another request reusing the key; empty
    /// without a key.
    let fingerprint: String

    init(_ idempotency: Idempotency, request: HTTPRequest, key: String?, fingerprint: String) {
        self.idempotency = idempotency
        self.request = request
        self.key = key
        self.fingerprint = fingerprint
    }

    /// The header's key, checked (a 422 naming it), with the fingerprint of the request's method,
    /// path and body — made only when a key came: a digest is not made for nothing.
    init(_ idempotency: Idempotency, request: HTTPRequest) throws(Problem) {
        let key = request.headers.clientValue(.idempotencyKey)
        if let key { try Idempotency.validate(key) }
        self.init(idempotency, request: request, key: key, fingerprint: key.map { _ in Idempotency.fingerprint(request) } ?? "")
    }

    /// Claims the key in a transaction of its own. Nil when the operation may run (the key is
    /// this request's now, or there is none); otherwise the answer to give instead.
    func claim() throws -> HTTPResponse? {
        guard let key else { return nil }
        return try idempotency.claimAlone(key, fingerprint: fingerprint, request: request)
    }

    /// Before the work, in its transaction: the claim is still this replica's.
    func hold(in context: any StoreContext) throws {
        if let key { try idempotency.hold(key, fingerprint: fingerprint, in: context) }
    }

    /// After the work, in its transaction: the answer a retry replays.
    func keep(_ answer: HTTPResponse, in context: any StoreContext) throws {
        if let key { try idempotency.keep(answer, for: key, fingerprint: fingerprint, in: context) }
    }

    /// The database was lost during the operation's COMMIT: what it did, told by its key's row
    /// (`Idempotency.settleLostCommit`); without a key there is no row to tell, and it stays
    /// unknown.
    func settleLostCommit() -> Idempotency.LostCommitOutcome {
        guard let key else { return .unknown }
        return idempotency.settleLostCommit(key, fingerprint: fingerprint, request: request)
    }

    /// The operation failed and wrote nothing: a retry must run it again.
    func release() {
        if let key { idempotency.release(key) }
    }
}
