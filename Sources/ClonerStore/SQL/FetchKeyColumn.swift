import ClonerModel

/// A column a list may filter or sort on, with the kind of values it holds: what a backend needs
/// to bind a cursor's value to it and to read a position back from it.
struct FetchKeyColumn {
    enum Kind {
        /// `_id`, `_version` or a to-one reference stored on the row.
        case id
        case attribute(AttributeType)
    }

    /// The property as the request names it.
    let name: String
    /// What the query selects, compares and orders by: the quoted column, or for a to-one
    /// declared into an inheritance hierarchy the one part of it that is set.
    let sql: String
    let kind: Kind
}
