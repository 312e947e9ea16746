import ClonerModel

/// A column a list may filter or sort on, with the kind of values it holds: what a backend needs
/// to bind a cursor's value to it and to read a position back from it.
struct FetchKeyColumn {
    enum Kind {
        /// `_id`, `_version` or a to-one reference stored on the row.
        case id
        case attribute(AttributeType)
    }

    let name: String
    let kind: Kind
}
