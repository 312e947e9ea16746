import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// `Idempotency-Key` across replicas (docs/architecture.md#replicas): the key is reserved in the database, in a
/// short transaction of its own, before the clone starts — so two retries arriving at two
/// replicas at the same moment make one clone, and the other answers the replay or 409
/// `in_progress` (as Stripe answers). The clone's own transaction turns the reservation into
/// the final answer (they commit together); a clone that fails gives the key back.
extension ClonesController {
    /// The clone's reservation was taken over (its lease ran out before the clone began): the
    /// clone must not run, another request holds the key now.
    struct ReservationLost: Error {
        let what: String
    }

    /// Reserves `key` for this request and then starts the clone, on a store worker (the
    /// reservation is a write). Holds the clone admission `startClone` took: given back here when the
    /// request is answered from the reservation.
    func startReservedClone(_ plan: ClonePlan, entity: EntityDescription, request: HTTPRequest, key: String,
                            fingerprint: String, async: Bool, responder: HTTPResponder) {
        writeWorkers.submit { [self] in
            let answer: HTTPResponse?
            do {
                answer = try reserveIdempotencyKey(key, fingerprint: fingerprint, request: request)
            } catch {
                answer = problemResponse(for: error, request: request, during: .write)
            }
            if let answer {
                admission.release(bytes: request.body.count)
                responder.respond(answer)
                return
            }
            guard async else {
                runClone(plan, entity: entity, request: request, key: key, fingerprint: fingerprint, responder: responder)
                return
            }
            do {
                responder.respond(try enqueueClone(plan, entity: entity, request: request, key: key, fingerprint: fingerprint))
            } catch {
                responder.respond(problemResponse(for: error, request: request, during: .write))
            }
        }
    }

    /// Nil when the key is this request's now; otherwise the answer: the stored one replayed, a
    /// 409 `in_progress` while the first request runs, a 422 when the key came with another request.
    func reserveIdempotencyKey(_ key: String, fingerprint: String, request: HTTPRequest) throws -> HTTPResponse? {
        let now = Date()
        // One writer at a time (SQLite): the write below would wait behind the very clone that
        // holds the key, so a retry reads first and answers 409 at once while that clone runs.
        if !store.allowsConcurrentWrites, let claim = try store.read({ try $0.peekIdempotencyKey(key, now: now) }) {
            return answer(for: claim, key: key, fingerprint: fingerprint, request: request)
        }
        let claim = try store.write { context in
            try context.reserveIdempotencyKey(key, fingerprint: fingerprint, owner: leases.replicaID,
                                              leaseExpiresAt: leases.expiry(from: now), now: now)
        }
        return answer(for: claim, key: key, fingerprint: fingerprint, request: request)
    }

    private func answer(for claim: IdempotencyClaim, key: String, fingerprint: String, request: HTTPRequest) -> HTTPResponse? {
        switch claim {
        case .reserved:
            return nil
        case .finished(let record):
            return replayResponse(record, fingerprint: fingerprint, request: request)
        case .inProgress(let other) where other != fingerprint:
            return Problem(code: .idempotencyKeyReused, detail: "this Idempotency-Key was used with a different request; use a new key for a new request")
                .response(requestID: request.id)
        case .inProgress:
            var response = Problem(code: .inProgress, detail: "a request with this Idempotency-Key is still running; retry after it has finished")
                .response(requestID: request.id)
            response.headers.set("Retry-After", "1")
            return response
        }
    }

    /// Gives the key back after the request holding it failed: nothing was written, so a retry
    /// must clone. Logged, not thrown: the answer is already decided, and a reservation left
    /// behind is released once its lease runs out.
    func releaseIdempotencyKey(_ key: String) {
        do {
            try store.write { try $0.releaseIdempotencyKey(key, owner: leases.replicaID) }
        } catch {
            logger.error("releasing an Idempotency-Key reservation failed", metadata: ["error": "\(error)"])
        }
    }
}
