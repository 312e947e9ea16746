/// How long a value guarded by a unique index may be, the same on every store.
///
/// A unique index holds each value in one index entry: PostgreSQL's B-tree refuses an entry over
/// 2,704 bytes (a third of a page), SQLite's has no such bound. So that a value one store takes is
/// never refused by the other as a server error, the service refuses longer ones first, naming
/// the field: the text, binary and json members of one unique index share `uniqueIndexBytes`
/// (leaving room for the fixed-width members and the entry's own header).
extension EntityDescription {
    /// Bytes the variable-length values of one unique index may hold together.
    public static let uniqueIndexBytes = 2000

    /// The most bytes (UTF-8 for text and json, raw for binary) a value of `attribute` may hold,
    /// or nil when no unique index guards it or its type has a fixed width.
    public func uniqueValueByteLimit(_ attribute: AttributeDescription) -> Int? {
        guard EntityDescription.isVariableLength(attribute.type) else { return nil }
        var members = attribute.isUnique ? 1 : 0
        for group in uniqueTogether where group.contains(attribute.name) {
            let variable = group.filter { name in self.attribute(named: name).map { EntityDescription.isVariableLength($0.type) } ?? false }
            members = max(members, variable.count)
        }
        return members == 0 ? nil : EntityDescription.uniqueIndexBytes / members
    }

    private static func isVariableLength(_ type: AttributeType) -> Bool {
        switch type {
        case .string, .binary, .json: true
        // A decimal's text is bounded by its 38 digits and exponent range: fewer than 200 bytes.
        case .integer, .double, .boolean, .date, .uuid, .decimal: false
        }
    }
}
