import ClonerStore

/// Raised inside a clone's transaction when its `Idempotency-Key` already has an answer: the
/// transaction ends without writing and the stored answer is given instead (or a 422 when the key
/// came with a different request).
struct IdempotentReplay: Error {
    let record: IdempotencyRecord
}
