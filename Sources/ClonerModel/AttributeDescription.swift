/// One attribute of an entity, as declared in the model file (docs/architecture.md#the-model-file).
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// The value a new object (or a blanked clone value) gets when none is given.
    public var defaultValue: AttributeValue?
    /// A unique index guards the column (as SwiftData's `.unique`).
    public var isUnique: Bool
    /// The attribute's previous name: the store renames the column instead of dropping data.
    public var originalName: String?
    public var userInfo: [String: JSONValue]
    public var cloneRule: AttributeCloneRule

    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = false,
        defaultValue: AttributeValue? = nil,
        isUnique: Bool = false,
        originalName: String? = nil,
        userInfo: [String: JSONValue] = [:],
        cloneRule: AttributeCloneRule = .copy
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isUnique = isUnique
        self.originalName = originalName
        self.userInfo = userInfo
        self.cloneRule = cloneRule
    }

    /// What a blanked or excluded value becomes: the default, else null.
    public var blankValue: AttributeValue { defaultValue ?? .null }

    /// Whether the attribute may be left without a value by a client or by a clone rule.
    public var acceptsBlank: Bool { isOptional || defaultValue != nil }
}
