/// What deleting an object does to the objects a relationship points at (Core Data's delete rules).
public enum DeleteRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// Clear the inverse reference on the destinations (default).
    case nullify
    /// Delete the destinations too.
    case cascade
    /// Refuse the delete while any destination exists.
    case deny
    /// Do nothing to the destinations; for a relationship without an inverse this leaves nothing
    /// dangling because only this side stores the reference.
    case noAction
}
