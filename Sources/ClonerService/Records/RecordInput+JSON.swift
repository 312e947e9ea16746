import ClonerModel

/// Decoding a request body into a `RecordInput`, collecting every field error instead of stopping
/// at the first, so one 422 tells the client everything to fix, and every link it makes to an
/// existing object, for the links to missing objects to join them (`RecordBody`).
extension RecordInput {
    /// Parses and checks a `POST`/`PATCH` body.
    public static func decode(
        _ body: [UInt8], entity: EntityDescription, model: DataModel, mode: Mode
    ) throws(RecordDecodingError) -> RecordInput {
        let read = try readBody(body, entity: entity, model: model, mode: mode)
        guard read.problems.isEmpty else { throw .invalidFields(read.problems) }
        return read.input
    }

    /// Checks an already parsed body.
    public static func decode(
        _ json: JSONValue, entity: EntityDescription, model: DataModel, mode: Mode
    ) throws(RecordDecodingError) -> RecordInput {
        let read = try readBody(json, entity: entity, model: model, mode: mode)
        guard read.problems.isEmpty else { throw .invalidFields(read.problems) }
        return read.input
    }

    /// Parses a `POST`/`PATCH` body and reads it against the model, keeping its problems and
    /// its links instead of throwing them: only text that is not JSON throws.
    static func readBody(
        _ body: [UInt8], entity: EntityDescription, model: DataModel, mode: Mode
    ) throws(RecordDecodingError) -> RecordBody {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalidJSON(error)
        }
        return try readBody(json, entity: entity, model: model, mode: mode)
    }

    /// Reads an already parsed body; a body that is no JSON object throws, as nothing in it can
    /// be read.
    static func readBody(
        _ json: JSONValue, entity: EntityDescription, model: DataModel, mode: Mode
    ) throws(RecordDecodingError) -> RecordBody {
        var errors: [FieldError] = []
        var links: [RecordLink] = []
        guard case .object(let members) = json else {
            throw .invalidFields([
                FieldError(
                    field: FieldError.body,
                    message: "the request body must be a JSON object of \(entity.name)'s attributes and relationships, got \(RecordJSONCoding.describe(json))")
            ])
        }
        let input = decodeObject(
            members, entity: entity, model: model, mode: mode, path: "", parentLink: nil, depth: 0, errors: &errors, links: &links)
        return RecordBody(input: input, problems: errors.sorted { $0.field < $1.field }, links: links)
    }

    /// Nested objects deeper than this are refused (the JSON parser's own limit is higher).
    static let maximumNesting = 32

    static func decodeObject(
        _ members: [String: JSONValue], entity: EntityDescription, model: DataModel, mode: Mode,
        path: String, parentLink: String?, depth: Int, errors: inout [FieldError], links: inout [RecordLink]
    ) -> RecordInput {
        var input = RecordInput(entity: entity.name, mode: mode, linkedToParentThrough: parentLink, path: path)
        let isNested = !path.isEmpty
        for name in members.keys.sorted() {
            let value = members[name]!
            let field = input.fieldPath(name)
            switch name {
            case "_entity":
                if value != .string(entity.name) {
                    errors.append(FieldError(field: field, message: "expected \"\(entity.name)\", got \(RecordJSONCoding.describe(value))"))
                }
                continue
            case RecordKeys.clonedFromName:
                errors.append(
                    FieldError(field: field, message: "the source a clone was made from is kept by the service and cannot be set; leave it out"))
                continue
            case "_id" where isNested:
                errors.append(
                    FieldError(
                        field: field,
                        message: "a nested object is always created; to link an existing \(entity.name), give its _id as a plain integer instead of an object"))
                continue
            case "_id", "_version":
                if mode == .create {
                    errors.append(FieldError(field: field, message: "\(name) is assigned by the service and cannot be set"))
                    continue
                }
                // A PATCH may send back a record it read: the values must then be the record's own
                // (checked by the caller); anything but a positive integer never is.
                guard case .integer(let number) = value, number > 0 else {
                    errors.append(
                        FieldError(
                            field: field,
                            message: "expected the record's own \(name) (a positive integer), got \(RecordJSONCoding.describe(value)); leave it out to keep it")
                    )
                    continue
                }
                if name == "_id" { input.claimedID = number } else { input.claimedVersion = number }
                continue
            default:
                break
            }
            if let attribute = entity.attribute(named: name) {
                do {
                    let decoded = try RecordJSONCoding.decodeValue(value, attribute: attribute, of: entity, field: field)
                    if decoded.isNull && !attribute.isOptional {
                        errors.append(FieldError(field: field, message: "must not be null"))
                    } else {
                        input.attributes[name] = decoded
                    }
                } catch {
                    errors.append(error)
                }
            } else if let relationship = entity.relationship(named: name), !relationship.isHierarchyPart {
                if name == parentLink {
                    errors.append(FieldError(field: field, message: "links to the enclosing object, which sets it; leave it out"))
                    continue
                }
                if let decoded = decodeRelationship(value, relationship, model: model, field: field, depth: depth, errors: &errors, links: &links) {
                    input.relationships[name] = decoded
                }
            } else if case let parts = entity.relationshipParts(ofField: name), !parts.isEmpty {
                if let parentLink, parts.contains(where: { $0.name == parentLink }) {
                    errors.append(FieldError(field: field, message: "links to the enclosing object, which sets it; leave it out"))
                    continue
                }
                if let decoded = decodeHierarchyField(value, parts: parts, model: model, field: field, depth: depth, errors: &errors, links: &links) {
                    input.hierarchyFields[name] = decoded
                }
            } else {
                errors.append(FieldError(field: field, message: "unknown field: \(entity.name) has no attribute or relationship named \"\(name)\""))
            }
        }
        if mode == .create {
            for attribute in entity.attributes where input.attributes[attribute.name] == nil {
                if let defaultValue = attribute.defaultValue {
                    input.attributes[attribute.name] = defaultValue
                } else if attribute.isOptional {
                    input.attributes[attribute.name] = .null
                } else if members[attribute.name] == nil {
                    errors.append(FieldError(field: input.fieldPath(attribute.name), message: "required \(attribute.type.rawValue) attribute is missing"))
                }
            }
            for relationship in entity.relationships where relationship.name != parentLink && members[relationship.name] == nil {
                if let problem = missingProblem(relationship) { errors.append(FieldError(field: input.fieldPath(relationship.name), message: problem)) }
            }
            for field in entity.hierarchyFieldNames where members[field] == nil {
                let parts = entity.relationshipParts(ofField: field)
                guard !parts.contains(where: { $0.name == parentLink }), let problem = missingProblem(declaredRelationship(parts)) else { continue }
                errors.append(FieldError(field: input.fieldPath(field), message: problem))
            }
        }
        return input
    }

    private static func decodeRelationship(
        _ value: JSONValue, _ relationship: RelationshipDescription, model: DataModel,
        field: String, depth: Int, errors: inout [FieldError], links: inout [RecordLink]
    ) -> RelationshipValue? {
        if relationship.isToMany {
            guard case .array(let elements) = value else {
                errors.append(
                    FieldError(
                        field: field, message: "expected an array of \(relationship.destination) _ids or objects, got \(RecordJSONCoding.describe(value))"))
                return nil
            }
            if let problem = countProblem(relationship, count: elements.count) {
                errors.append(FieldError(field: field, message: problem))
                return nil
            }
            var references: [Reference] = []
            var seen: Set<Int64> = []
            var failed = false
            for (position, element) in elements.enumerated() {
                let elementField = "\(field)[\(position)]"
                guard let reference = decodeReference(element, relationship, model: model, field: elementField, depth: depth, errors: &errors, links: &links)
                else {
                    failed = true
                    continue
                }
                if case .existing(let id) = reference, !seen.insert(id).inserted {
                    errors.append(FieldError(field: elementField, message: "\(relationship.destination) \(id) is listed twice"))
                    failed = true
                }
                references.append(reference)
            }
            return failed ? nil : .toMany(references)
        }
        if case .null = value {
            guard relationship.isOptional else {
                errors.append(FieldError(field: field, message: "must not be null"))
                return nil
            }
            return .toOne(nil)
        }
        guard let reference = decodeReference(value, relationship, model: model, field: field, depth: depth, errors: &errors, links: &links) else { return nil }
        return .toOne(reference)
    }

    private static func decodeReference(
        _ value: JSONValue, _ relationship: RelationshipDescription, model: DataModel,
        field: String, depth: Int, errors: inout [FieldError], links: inout [RecordLink]
    ) -> Reference? {
        switch value {
        case .integer(let id) where id > 0:
            links.append(RecordLink(relationship: relationship, id: id, field: field))
            return .existing(id)
        case .double(let number) where number >= 1 && number.rounded(.towardZero) == number && Int64(exactly: number) != nil:
            links.append(RecordLink(relationship: relationship, id: Int64(number), field: field))
            return .existing(Int64(number))
        case .object(let members):
            guard depth + 1 < maximumNesting else {
                errors.append(FieldError(field: field, message: "nested objects deeper than \(maximumNesting) levels"))
                return nil
            }
            guard let destination = model.entity(named: relationship.destination) else {
                preconditionFailure("\(relationship.qualifiedName): destination \(relationship.destination) missing from a validated model")
            }
            let nested = decodeObject(
                members, entity: destination, model: model, mode: .create, path: field,
                parentLink: relationship.inverseName, depth: depth + 1, errors: &errors, links: &links)
            return .new(nested)
        default:
            let shape = relationship.isToMany ? "an element" : "a value"
            errors.append(
                FieldError(
                    field: field,
                    message:
                        "expected \(shape) that is a \(relationship.destination) _id (positive integer) or a nested object, got \(RecordJSONCoding.describe(value))"
                ))
            return nil
        }
    }
}
