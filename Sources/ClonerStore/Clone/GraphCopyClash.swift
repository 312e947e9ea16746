/// A unique attribute (or `uniqueTogether` group) a dry run found the copy would repeat: the
/// clone itself would answer 409 on the first of them.
public struct GraphCopyClash: Sendable, Hashable, Codable {
    public var entity: String
    public var attributes: [String]
    /// The copied objects whose value another object already holds or another copy would hold.
    public var objects: Int

    public init(entity: String, attributes: [String], objects: Int) {
        self.entity = entity
        self.attributes = attributes
        self.objects = objects
    }
}
