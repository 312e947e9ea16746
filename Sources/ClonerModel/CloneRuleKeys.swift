/// The `userInfo` key names that carry clone rules. Defaults are MOCloner's names; a deployment can
/// rename them the way `MOClonerUserInfoKeyConfig` allows, e.g. to avoid clashing with other tools
/// that read the same `userInfo` maps.
public struct CloneRuleKeys: Sendable, Hashable, Codable {
    public var exclude: String
    public var rebuild: String
    public var followParent: String
    public var withoutParent: String
    /// Ownership override on a relationship: value `share` or `copy`.
    public var clone: String

    public init(
        exclude: String = "exclude",
        rebuild: String = "rebuild",
        followParent: String = "followParent",
        withoutParent: String = "withoutParent",
        clone: String = "clone"
    ) {
        self.exclude = exclude
        self.rebuild = rebuild
        self.followParent = followParent
        self.withoutParent = withoutParent
        self.clone = clone
    }

    public static let moCloner = CloneRuleKeys()
}
