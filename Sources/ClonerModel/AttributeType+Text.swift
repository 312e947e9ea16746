extension AttributeType {
    /// Values kept as text of any length (strings and JSON): what a page's text budget counts.
    public var isText: Bool { self == .string || self == .json }
}
