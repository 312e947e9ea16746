/// Why a store operation failed, in terms the service can map to a status and a field name.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The file is not a SQLite database, fails its integrity check, belongs to something else, or
    /// the process may not read and write it or create files in its folder (`reason` names the
    /// uid and the path's owner and mode).
    case incompatibleStore(path: String, reason: String)
    /// The location names a backend this build cannot open (`reason` says which and why).
    case backendUnavailable(location: String, reason: String)
    /// The model changed in a way the store cannot apply without losing or inventing data.
    case migrationRefused(reasons: [String])
    case notFound(entity: String, id: Int64)
    case versionConflict(entity: String, id: Int64, expected: Int64, actual: Int64)
    /// A unique attribute would hold the same value twice.
    case uniqueViolation(entity: String, attribute: String)
    /// A `uniqueTogether` group would hold the same combination of values twice.
    case uniqueTogetherViolation(entity: String, attributes: [String])
    /// A `deny` delete rule found related objects.
    case deleteDenied(entity: String, id: Int64, relationship: String)
    /// A required relationship would be left empty (by a delete's nullify, or by an edit).
    case requiredRelationship(entity: String, relationship: String)
    case invalidValue(entity: String, property: String, reason: String)
    case unknownProperty(entity: String, property: String)
    /// A relationship value names an `_id` that does not exist.
    case danglingReference(entity: String, relationship: String, id: Int64)
    /// A value a copy gives its root names an object that does not exist: `relationship` of the
    /// root's entity, in copy `copy` (0-based) when only that copy's own values name it, nil when
    /// the values shared by every copy do. The clone layer says it in the request's terms.
    case missingRootLink(relationship: String, copy: Int?, message: String)
    /// A bulk copy would create more objects than its plan allows.
    case tooLarge(objects: Int, limit: Int)
    /// A database error with no meaning in the model, with the backend's code, message and SQL.
    case database(DatabaseFailure)
    /// Another write (a long clone, say) held the writer for longer than the store waits.
    case busy(waited: Duration)
    /// The database could not be reached, or the node reached no longer takes writes (a failover
    /// under way: the old primary gone or demoted, the new one not yet promoted). `outcomeUnknown`:
    /// the connection was lost while the transaction committed, so it may have been kept — what it
    /// wrote must be looked for once a primary answers, never taken as not written.
    case unavailable(reason: String, outcomeUnknown: Bool)
    /// `error` (a unique violation, say) happened in copy `index` (0-based) of a bulk copy of
    /// many copies (docs/architecture.md#many-copies); nothing of any copy was kept.
    indirect case inCopy(index: Int, error: StoreError)

    public var description: String {
        switch self {
        case let .incompatibleStore(path, reason): return "cannot use store \(path): \(reason)"
        // One reason a line, as `cloner check-model` lists a model's problems.
        case let .migrationRefused(reasons): return (["model change refused:"] + reasons.map { "  - \($0)" }).joined(separator: "\n")
        case let .notFound(entity, id): return "\(entity) \(id) not found"
        case let .versionConflict(entity, id, expected, actual): return "\(entity) \(id) is at version \(actual), not \(expected)"
        case let .uniqueViolation(entity, attribute): return "\(entity).\(attribute) must be unique: the value is already used"
        case let .uniqueTogetherViolation(entity, attributes):
            return "\(attributes.map { "\(entity).\($0)" }.joined(separator: ", ")) must be unique together: the combination is already used"
        case let .deleteDenied(entity, id, relationship):
            return "\(entity) \(id) cannot be deleted: \(entity).\(relationship) still has related objects (delete rule deny)"
        case let .requiredRelationship(entity, relationship): return "\(entity).\(relationship) is required and would be left empty"
        case let .invalidValue(entity, property, reason): return "\(entity).\(property): \(reason)"
        case let .unknownProperty(entity, property): return "\(entity) has no attribute or relationship named \(property)"
        case let .danglingReference(entity, relationship, id): return "\(entity).\(relationship): no object with _id \(id)"
        case let .backendUnavailable(location, reason): return "cannot use store \(location): \(reason)"
        case let .missingRootLink(relationship, copy, message):
            return (copy.map { "copy \($0), " } ?? "") + "\(relationship): \(message)"
        case let .tooLarge(objects, limit): return "the copy would create at least \(objects) objects, more than the limit of \(limit)"
        case let .database(failure): return failure.description
        case let .busy(waited): return "the database was busy with other writes for \(waited)"
        case let .unavailable(reason, outcomeUnknown):
            return "the database is unavailable: \(reason)" + (outcomeUnknown ? " (lost while committing: the outcome is unknown)" : "")
        case let .inCopy(index, error): return "copy \(index): \(error)"
        }
    }
}
