import ClonerModel
import ClonerStore

/// A relationship declared into an inheritance hierarchy (`Comment.post` → abstract `BasePost`),
/// as a body writes it: one field of `_id`s (or nested objects naming their `_entity`), whatever
/// concrete entity each object is of. The store keeps one relationship per concrete entity (its
/// parts, `RelationshipDeclaration`); which part an `_id` goes to is known only once the store
/// says which entity holds it, so the field is kept as read (`hierarchyFields`) and split into its
/// parts inside the save's transaction (`resolvingHierarchyFields`), one query per field.
extension RecordInput {
    public enum HierarchyReference: Sendable, Hashable {
        /// An existing object of one of the destination's concrete entities.
        case existing(Int64)
        /// A new object, of the concrete entity its body's `_entity` names.
        case new(RecordInput)
    }

    public enum HierarchyFieldValue: Sendable, Hashable {
        case toOne(HierarchyReference?)
        case toMany([HierarchyReference])
    }

    /// The relationship a field declared into a hierarchy stands for, as messages and the
    /// count checks read it: the declared name, destination and cardinality.
    static func declaredRelationship(_ parts: [RelationshipDescription]) -> RelationshipDescription {
        let part = parts[0]
        guard let declaration = part.declaration else { return part }
        var declared = RelationshipDescription(
            name: declaration.name, destination: declaration.destination, isToMany: part.isToMany, isOrdered: part.isOrdered,
            inverseName: declaration.inverseName, deleteRule: part.deleteRule, isOptional: declaration.isOptional)
        declared.minCount = declaration.minCount
        declared.maxCount = declaration.maxCount
        return declared
    }

    /// Reads a field whose parts are `parts`; nil (with the errors noted) when it is wrong.
    static func decodeHierarchyField(
        _ value: JSONValue, parts: [RelationshipDescription], model: DataModel,
        field: String, depth: Int, errors: inout [FieldError], links: inout [RecordLink]
    ) -> HierarchyFieldValue? {
        let declared = declaredRelationship(parts)
        func reference(_ element: JSONValue, at path: String) -> HierarchyReference? {
            switch element {
            case .integer(let id) where id > 0:
                return .existing(id)
            case .double(let number) where number >= 1 && number.rounded(.towardZero) == number && Int64(exactly: number) != nil:
                return .existing(Int64(number))
            case .object(let members):
                let concrete = parts.map(\.destination)
                guard case .string(let name)? = members["_entity"], let part = parts.first(where: { $0.destination == name }) else {
                    errors.append(
                        FieldError(
                            field: path,
                            message:
                                "a new \(declared.destination) names its concrete entity: \"_entity\": one of \(concrete.joined(separator: ", ")), got \(members["_entity"].map(RecordJSONCoding.describe) ?? "none")"
                        ))
                    return nil
                }
                guard depth + 1 < maximumNesting else {
                    errors.append(FieldError(field: path, message: "nested objects deeper than \(maximumNesting) levels"))
                    return nil
                }
                guard let destination = model.entity(named: part.destination) else { preconditionFailure("\(part.qualifiedName): no destination") }
                return .new(
                    decodeObject(
                        members, entity: destination, model: model, mode: .create, path: path,
                        parentLink: part.inverseName, depth: depth + 1, errors: &errors, links: &links))
            default:
                let shape = declared.isToMany ? "an element" : "a value"
                errors.append(
                    FieldError(
                        field: path,
                        message:
                            "expected \(shape) that is the _id of a \(declared.destination) (positive integer) or a nested object with its \"_entity\", got \(RecordJSONCoding.describe(element))"
                    ))
                return nil
            }
        }
        guard declared.isToMany else {
            if case .null = value {
                guard declared.isOptional else {
                    errors.append(FieldError(field: field, message: "must not be null"))
                    return nil
                }
                return .toOne(nil)
            }
            return reference(value, at: field).map { .toOne($0) }
        }
        guard case .array(let elements) = value else {
            errors.append(
                FieldError(field: field, message: "expected an array of \(declared.destination) _ids or objects, got \(RecordJSONCoding.describe(value))"))
            return nil
        }
        if let problem = countProblem(declared, count: elements.count) {
            errors.append(FieldError(field: field, message: problem))
            return nil
        }
        var references: [HierarchyReference] = []
        var seen: Set<Int64> = []
        var failed = false
        for (position, element) in elements.enumerated() {
            guard let decoded = reference(element, at: "\(field)[\(position)]") else {
                failed = true
                continue
            }
            if case .existing(let id) = decoded, !seen.insert(id).inserted {
                errors.append(FieldError(field: "\(field)[\(position)]", message: "\(declared.destination) \(id) is listed twice"))
                failed = true
            }
            references.append(decoded)
        }
        return failed ? nil : .toMany(references)
    }
}
