import Foundation

/// The first answer given to a request carrying an `Idempotency-Key`.
public struct IdempotencyRecord: Sendable, Hashable {
    public var key: String
    /// A digest of the request (method, path, body) so the same key with another request is told
    /// apart from a retry.
    public var fingerprint: String
    public var status: Int
    public var location: String?
    public var body: Data
    public var createdAt: Date

    public init(key: String, fingerprint: String, status: Int, location: String?, body: Data, createdAt: Date = Date()) {
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.location = location
        self.body = body
        self.createdAt = createdAt
    }
}
