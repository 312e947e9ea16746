/// The clone rules of one attribute, parsed from its `userInfo` (docs/architecture.md#attribute-rules).
/// Precedence when several are present: exclude, followParent, rebuild, copy.
public struct AttributeCloneRule: Sendable, Hashable {
    public enum Rebuild: String, Sendable, Hashable, CaseIterable {
        /// A fresh random UUID per clone (uuid attributes only).
        case uuid
        /// The clone's single timestamp (date attributes only).
        case now
        /// The value with a suffix that makes it unique among the entity's values (text
        /// attributes only; `copySuffix` says which).
        case suffix
    }

    public enum WithoutParent: String, Sendable, Hashable, CaseIterable {
        /// Keep the value (rebuilt if `rebuild` is set too).
        case keep
        /// Default or null.
        case blank
    }

    public var isExcluded: Bool
    /// Name of the attribute of the parent's clone whose value this attribute takes.
    public var followParent: String?
    public var withoutParent: WithoutParent
    public var rebuild: Rebuild?
    /// The suffixes `rebuild: suffix` appends (the defaults when the user info names none).
    public var copySuffix: CopySuffix

    public init(
        isExcluded: Bool = false, followParent: String? = nil, withoutParent: WithoutParent = .keep, rebuild: Rebuild? = nil,
        copySuffix: CopySuffix = CopySuffix()
    ) {
        self.isExcluded = isExcluded
        self.followParent = followParent
        self.withoutParent = withoutParent
        self.rebuild = rebuild
        self.copySuffix = copySuffix
    }

    /// Plain byte-for-byte copy.
    public static let copy = AttributeCloneRule()
}
