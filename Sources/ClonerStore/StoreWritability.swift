/// Whether the store takes writes now, and if not, why — what `/readyz` says to a load balancer
/// and to the operator reading it.
public enum StoreWritability: Sendable, Equatable {
    case writable
    case notWritable(reason: String)
}
