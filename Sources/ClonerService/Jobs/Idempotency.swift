import ClonerHTTP
import ClonerStore
import Foundation
import Logging

/// `Idempotency-Key` across replicas (docs/architecture.md#replicas), for every operation that
/// takes one — a clone and an import share one key space. The key is claimed in the database
/// before the operation starts — so two retries arriving at two replicas at the same moment run
/// the operation once, and the other answers the replay or 409 `in_progress` (as Stripe answers). The
/// operation's own transaction turns the claim into the final answer (they commit together); a
/// synchronous operation that fails gives the key back.
///
/// This type decides what a claim means for the request and builds those answers; the runners
/// decide in which transaction the claim is made (`IdempotentOperation`, `JobRunner`).
final class Idempotency: Sendable {
    /// The longest key accepted, in bytes.
    static let maximumKeyLength = 255

    let store: IncrementalStore
    let metrics: ServiceMetrics
    let logger: Logger
    /// This replica's id and lease: the owner written on claims.
    let leases: JobLeaseKeeper

    init(store: IncrementalStore, metrics: ServiceMetrics, logger: Logger, leases: JobLeaseKeeper) {
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.leases = leases
    }

    /// A key of 1 to `maximumKeyLength` bytes, or a 422 naming the header.
    static func validate(_ key: String) throws(Problem) {
        guard (1...maximumKeyLength).contains(key.utf8.count) else {
            throw Problem.validationFailed([FieldError(field: "Idempotency-Key", message: "expected 1 to \(maximumKeyLength) characters")])
        }
        // A field value cannot carry these as written; decoded from `%00` or `%0A` they would be a
        // key no other client could send (and NUL no PostgreSQL text can hold).
        if key.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw Problem.validationFailed([FieldError(field: "Idempotency-Key", message: "expected no control characters (after percent-decoding)")])
        }
    }

    /// A digest of what the request asks for, to tell a retry from a different request reusing
    /// the key (RFC draft "The Idempotency-Key HTTP Header Field", §2.2).
    static func fingerprint(_ request: HTTPRequest) -> String {
        let bytes = Array("\(request.method.rawValue) \(request.path)\n".utf8) + request.body
        return APIKeyAuthenticator.sha256(bytes).lowercaseHex
    }

    /// On one writer (SQLite) a claim would wait behind the very operation that holds the key, so
    /// a retry reads first and answers at once while that operation runs. Nil when the key is free to
    /// claim (or the store takes concurrent writes, where the claim itself answers at once).
    func peek(_ key: String, fingerprint: String, request: HTTPRequest, now: Date) throws -> HTTPResponse? {
        guard !store.allowsConcurrentWrites, let claim = try store.read({ try $0.peekIdempotencyKey(key, now: now) }) else { return nil }
        return answer(for: claim, fingerprint: fingerprint, request: request)
    }

    /// Claims `key` for this request inside the caller's write transaction. Nil when the key is
    /// this request's now; otherwise the answer to give instead.
    func claim(_ key: String, fingerprint: String, request: HTTPRequest, now: Date, in context: any StoreContext) throws -> HTTPResponse? {
        let claim = try context.reserveIdempotencyKey(
            key, fingerprint: fingerprint, owner: leases.replicaID,
            leaseExpiresAt: leases.expiry(from: now), now: now)
        return answer(for: claim, fingerprint: fingerprint, request: request)
    }

    /// `peek`, then `claim` in a short transaction of its own — for a synchronous operation, whose
    /// claim must be visible to other requests while it runs.
    func claimAlone(_ key: String, fingerprint: String, request: HTTPRequest) throws -> HTTPResponse? {
        let now = Date()
        // A claim of this replica's whose operation ended while the database was away, not yet
        // given back: the retry gives it back itself, rather than answering 409 in_progress for
        // an operation that no longer runs.
        let unreleased: Bool
        switch leases.takeUnreleased(key: key) {
        case .none: unreleased = false
        case .taken: unreleased = true
        case .settling:
            throw StoreError.unavailable(
                reason: "an earlier attempt with this Idempotency-Key is being settled after the database's loss", outcomeUnknown: false)
        }
        do {
            if !unreleased, let answer = try peek(key, fingerprint: fingerprint, request: request, now: now) { return answer }
            return try store.write { context in
                if unreleased { try context.releaseIdempotencyKey(key, owner: leases.replicaID) }
                return try claim(key, fingerprint: fingerprint, request: request, now: now, in: context)
            }
        } catch StoreError.unavailable(let reason, outcomeUnknown: true) {
            // The claim's own COMMIT was lost: it may have been kept, and no operation will run for
            // it — renewed with this replica's others it would stay taken for good. Given back
            // later (a claim kept, or none: either way the key is free again).
            leases.releaseLater(key: key)
            throw StoreError.unavailable(reason: reason, outcomeUnknown: false)
        } catch {
            if unreleased { leases.putBack(key: key) }
            throw error
        }
    }

    private func answer(for claim: IdempotencyClaim, fingerprint: String, request: HTTPRequest) -> HTTPResponse? {
        switch claim {
        case .reserved:
            return nil
        case .finished(let record):
            return replayResponse(record, fingerprint: fingerprint, request: request)
        case .inProgress(let other) where other != fingerprint:
            return Self.reusedKeyResponse(request)
        case .inProgress:
            return Problem(code: .inProgress, detail: "a request with this Idempotency-Key is still running; retry after it has finished")
                .response(requestID: request.id)
        }
    }

    /// In the operation's own transaction, before its work: the claim is still this replica's,
    /// or the operation must not run as another's.
    ///
    /// A claim can vanish while its operation waits: a failover whose new primary never received
    /// the claim's COMMIT, or this replica's lease swept while it could not reach the database.
    /// Nobody else holding the key, the claim is taken again here, in the operation's transaction —
    /// it commits with the work, and a concurrent retry waits on its row, then replays. Taken by
    /// another request meanwhile, this one answers 409 `in_progress`, and its retry the answer.
    func hold(_ key: String, fingerprint: String, in context: any StoreContext) throws {
        guard try !context.holdIdempotencyReservation(key, owner: leases.replicaID) else { return }
        let now = Date()
        let again = try context.reserveIdempotencyKey(
            key, fingerprint: fingerprint, owner: leases.replicaID, leaseExpiresAt: leases.expiry(from: now), now: now)
        guard again != .reserved else {
            logger.notice("an Idempotency-Key claim was lost while its operation waited (a failover?); taken again", metadata: ["key": "\(key)"])
            return
        }
        throw Problem(
            code: .inProgress,
            detail: "another request took this Idempotency-Key over while this one waited for the database; retry to get its answer")
    }

    /// In the operation's own transaction, after its work: `answer` is what a retry with `key`
    /// replays, committed with the work so a retry after a crash finds both or neither.
    func keep(_ answer: HTTPResponse, for key: String, fingerprint: String, in context: any StoreContext) throws {
        try context.saveIdempotencyRecord(
            IdempotencyRecord(
                key: key, fingerprint: fingerprint, status: answer.status.code, location: answer.headers["Location"], body: Data(answer.body)))
    }

    /// A replay counts in the metrics as a replayed clone, whichever operation answered first.
    private func replayResponse(_ record: IdempotencyRecord, fingerprint: String, request: HTTPRequest) -> HTTPResponse {
        guard record.fingerprint == fingerprint else { return Self.reusedKeyResponse(request) }
        metrics.recordClone(result: .replayed, objects: 0, duration: .zero)
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Idempotent-Replayed": "true"]
        if let location = record.location { headers.set("Location", location) }
        return HTTPResponse(status: HTTPStatus(record.status), headers: headers, body: Array(record.body))
    }

    private static func reusedKeyResponse(_ request: HTTPRequest) -> HTTPResponse {
        Problem(code: .idempotencyKeyReused, detail: "this Idempotency-Key was used with a different request; use a new key for a new request")
            .response(requestID: request.id)
    }

    /// Gives the key back after the request holding it failed: nothing was written, so a retry
    /// must run it. Logged, not thrown: the answer is already decided, and a claim left behind is
    /// released once its lease runs out.
    func release(_ key: String) {
        do {
            try store.write { try $0.releaseIdempotencyKey(key, owner: leases.replicaID) }
        } catch {
            // Renewed with this replica's other claims, it would stay taken: given back later.
            leases.releaseLater(key: key)
            logger.error("releasing an Idempotency-Key reservation failed; retried at the next lease tick", metadata: ["error": "\(error)"])
        }
    }

    /// The longest a request waits to learn what a COMMIT lost with its database did.
    static let outcomeWait: Duration = .seconds(15)

    /// After the database was lost during the operation's COMMIT, what it did: the operation's
    /// transaction keeps its answer with the key, so the key's row tells — once a primary answers.
    /// Asked again (every half second, up to `outcomeWait`): the kept answer if the transaction
    /// committed; `.notWritten` once the key was given back (the claim alone was left); `.unknown`
    /// if no primary answered in time, and the key is given back later.
    func settleLostCommit(_ key: String, fingerprint: String, request: HTTPRequest) -> LostCommitOutcome {
        let deadline = ContinuousClock.now + Self.outcomeWait
        while true {
            do {
                // A transaction still committing on a live server holds the claim's row: the
                // release waits for it, and the look after tells what it did.
                try store.write { try $0.releaseIdempotencyKey(key, owner: leases.replicaID) }
                if case .finished(let record)? = try store.read({ try $0.peekIdempotencyKey(key, now: Date()) }) {
                    return .committed(replayResponse(record, fingerprint: fingerprint, request: request))
                }
                return .notWritten
            } catch {
                guard ContinuousClock.now < deadline else {
                    leases.releaseLater(key: key)
                    logger.warning("the outcome of a COMMIT lost with its database stays unknown", metadata: ["error": "\(error)"])
                    return .unknown
                }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    /// What `settleLostCommit` found.
    enum LostCommitOutcome {
        case committed(HTTPResponse)
        case notWritten
        case unknown
    }
}
