import ClonerModel

/// What a create or PATCH body must say of a relationship, read as Core Data reads the model: a
/// required to-one must be given; a required to-many may be left out or empty, since only its
/// `minCount`/`maxCount` bound it (docs/architecture.md#records).
extension RecordInput {
    /// Why a create body may not leave `relationship` out, or nil when it may.
    static func missingProblem(_ relationship: RelationshipDescription) -> String? {
        guard !relationship.isOptional else { return nil }
        if !relationship.isToMany { return "required relationship to \(relationship.destination) is missing" }
        guard let least = relationship.minCount, least > 0 else { return nil }
        return "required: at least \(least) \(relationship.destination) (minCount \(least)), none given"
    }

    /// Why a to-many of `count` elements breaks the model's bounds, or nil. An optional to-many may
    /// be empty whatever its `minCount`, as in Core Data.
    static func countProblem(_ relationship: RelationshipDescription, count: Int) -> String? {
        if let least = relationship.minCount, count < least, count > 0 || !relationship.isOptional {
            return "\(count) \(relationship.destination) given, fewer than minCount \(least)"
        }
        if let most = relationship.maxCount, count > most {
            return "\(count) \(relationship.destination) given, more than maxCount \(most)"
        }
        return nil
    }

    /// Whether a create body must hold `relationship`: what the served schema lists as `required`.
    static func isRequiredOnCreate(_ relationship: RelationshipDescription) -> Bool {
        missingProblem(relationship) != nil
    }
}
