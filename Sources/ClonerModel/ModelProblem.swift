/// One mistake found in a model file, located as precisely as the file allows.
public struct ModelProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entity the problem belongs to, if any.
    public var entity: String?
    /// The attribute or relationship, if any.
    public var property: String?
    public var message: String
    /// The JSON path the message ends with, when it was located by one (see `ModelProblem+Location`).
    var jsonPath: String?
    /// The line of a Core Data model's `contents` the problem is at, to list problems in file order.
    var line: Int?

    public init(entity: String? = nil, property: String? = nil, message: String) {
        self.entity = entity
        self.property = property
        self.message = message
    }

    public var description: String {
        switch (entity, property) {
        case let (entity?, property?): return "\(entity).\(property): \(message)"
        case let (entity?, nil): return "\(entity): \(message)"
        default: return message
        }
    }
}
