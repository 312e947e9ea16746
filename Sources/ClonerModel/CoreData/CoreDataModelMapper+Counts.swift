/// A to-many's `minCount`/`maxCount` (the Count fields of Xcode's relationship inspector).
extension CoreDataModelMapper {
    /// The model file's `minCount`/`maxCount` for a to-many relationship element. Core Data writes
    /// 0 (or nothing) for "no bound", which the model file spells by leaving the field out; a value
    /// that is not a count passes through as text for the model file's decoder to refuse by name.
    static func counts(_ node: XMLNode) -> [String: JSONValue] {
        var counts: [String: JSONValue] = [:]
        for name in ["minCount", "maxCount"] {
            guard let text = node.attributes[name] else { continue }
            if let count = Int64(text) {
                if count != 0 { counts[name] = .integer(count) }
            } else {
                counts[name] = .string(text)
            }
        }
        return counts
    }
}
