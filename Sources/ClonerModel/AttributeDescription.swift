/// One attribute of an entity, as declared in the model file (docs/architecture.md#the-model-file).
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    /// The width of an `integer` attribute (64 for every other type), checked on every value written.
    public var integerWidth: IntegerWidth
    public var isOptional: Bool
    /// The value a new object (or a blanked clone value) gets when none is given.
    public var defaultValue: AttributeValue?
    /// A unique index guards the column (as SwiftData's `.unique`).
    public var isUnique: Bool
    /// The attribute's previous name: the store renames the column instead of dropping data.
    public var originalName: String?
    /// Core Data's Renaming ID as the model saved it (docs/architecture.md#core-data-models); see
    /// `EntityDescription.renamingID`.
    public var renamingID: String?
    public var userInfo: [String: JSONValue]
    public var cloneRule: AttributeCloneRule

    public init(
        name: String,
        type: AttributeType,
        integerWidth: IntegerWidth = .bits64,
        isOptional: Bool = false,
        defaultValue: AttributeValue? = nil,
        isUnique: Bool = false,
        originalName: String? = nil,
        renamingID: String? = nil,
        userInfo: [String: JSONValue] = [:],
        cloneRule: AttributeCloneRule = .copy
    ) {
        self.name = name
        self.type = type
        self.integerWidth = integerWidth
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isUnique = isUnique
        self.originalName = originalName
        self.renamingID = renamingID
        self.userInfo = userInfo
        self.cloneRule = cloneRule
    }

    /// What a blanked or excluded value becomes: the default, else null.
    public var blankValue: AttributeValue { defaultValue ?? .null }

    /// Whether the attribute may be left without a value by a client or by a clone rule.
    public var acceptsBlank: Bool { isOptional || defaultValue != nil }

    /// Why `value` cannot be stored in the attribute although it has the attribute's type (an
    /// integer outside the attribute's width), or nil. Every path that writes a value from JSON
    /// asks this after `AttributeValue.decode(json:type:)`.
    public func valueProblem(_ value: AttributeValue) -> String? {
        guard case .integer(let number) = value else { return nil }
        return integerWidth.problem(with: number)
    }
}
