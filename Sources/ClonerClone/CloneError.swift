/// Why a clone did not happen. Every case means nothing was written.
public enum CloneError: Error, Sendable, CustomStringConvertible {
    case rootNotFound(entity: String, id: Int64)
    case unknownEntity(String)
    /// A request option names something that does not exist or cannot take that value; `field`
    /// is the request field (`exclude[2]`, `set.name`).
    case invalidRequest(field: String, message: String)
    /// More objects than the configured limit.
    case tooLarge(objects: Int, limit: Int)
    /// A unique attribute would hold the same value twice. `atRoot`: of the root's entity, where
    /// `set` can give the root a value of its own; otherwise of an object below it, which only a
    /// rule in the model reaches.
    case conflict(entity: String, attribute: String, atRoot: Bool)
    /// A `uniqueTogether` group would hold the same combination twice.
    case conflictTogether(entity: String, attributes: [String], atRoot: Bool)
    /// `error` happened in copy `index` (0-based) of a request for many copies; no copy was kept.
    indirect case inCopy(index: Int, error: CloneError)

    public var description: String {
        switch self {
        case let .rootNotFound(entity, id): return "\(entity) \(id) not found"
        case let .unknownEntity(name): return "unknown entity \(name)"
        case let .invalidRequest(field, message): return "\(field): \(message)"
        case let .tooLarge(objects, limit): return "the clone would create at least \(objects) objects, more than the limit of \(limit)"
        case let .conflict(entity, attribute, _): return "\(entity).\(attribute) must be unique, and the clone would repeat a value"
        case let .conflictTogether(entity, attributes, _):
            return "\(attributes.map { "\(entity).\($0)" }.joined(separator: ", ")) must be unique together, and the clone would repeat a combination"
        case let .inCopy(index, error): return "copy \(index): \(error)"
        }
    }
}
