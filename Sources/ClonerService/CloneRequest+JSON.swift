import ClonerModel

extension CloneRequest {
    /// Parses and checks a clone body; an empty body means all defaults (the body is optional).
    public static func decode(_ body: [UInt8], root: EntityDescription, model: DataModel) throws(RecordDecodingError) -> CloneRequest {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return CloneRequest() }
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            throw .invalidJSON(error)
        }
        return try decode(json, root: root, model: model)
    }

    public static func decode(_ json: JSONValue, root: EntityDescription, model: DataModel) throws(RecordDecodingError) -> CloneRequest {
        guard case .object(let members) = json else {
            throw .invalidFields([FieldError(field: "", message: "expected a JSON object, got \(RecordJSONCoding.describe(json))")])
        }
        var request = CloneRequest()
        var errors: [FieldError] = []
        for name in members.keys.sorted() {
            let value = members[name]!
            switch name {
            case "exclude":
                guard case .array(let entries) = value else {
                    errors.append(FieldError(field: name, message: "expected an array of property names, got \(RecordJSONCoding.describe(value))"))
                    continue
                }
                for (position, entry) in entries.enumerated() {
                    let field = "exclude[\(position)]"
                    guard case .string(let text) = entry else {
                        errors.append(FieldError(field: field, message: "expected a property name, got \(RecordJSONCoding.describe(entry))"))
                        continue
                    }
                    switch resolveExclusion(text, root: root, model: model) {
                    case .success(let exclusion):
                        if !request.exclusions.contains(exclusion) { request.exclusions.append(exclusion) }
                    case .failure(let message):
                        errors.append(FieldError(field: field, message: message.text))
                    }
                }
            case "set":
                guard case .object(let values) = value else {
                    errors.append(FieldError(field: name, message: "expected an object of attribute values, got \(RecordJSONCoding.describe(value))"))
                    continue
                }
                for propertyName in values.keys.sorted() {
                    let field = "set.\(propertyName)"
                    let propertyValue = values[propertyName]!
                    if let relationship = root.relationship(named: propertyName) {
                        if let ids = decodeLinks(propertyValue, relationship, field: field, errors: &errors) {
                            request.setRelationships[propertyName] = ids
                        }
                        continue
                    }
                    guard let attribute = root.attribute(named: propertyName) else {
                        errors.append(FieldError(field: field, message: "\(root.name) has no attribute or relationship named \"\(propertyName)\""))
                        continue
                    }
                    do {
                        let decoded = try RecordJSONCoding.decodeValue(propertyValue, type: attribute.type, field: field)
                        if decoded.isNull && !attribute.isOptional {
                            errors.append(FieldError(field: field, message: "must not be null"))
                        } else {
                            request.set[propertyName] = decoded
                        }
                    } catch {
                        errors.append(error)
                    }
                }
            case "dryRun", "returnIds":
                guard case .bool(let flag) = value else {
                    errors.append(FieldError(field: name, message: "expected true or false, got \(RecordJSONCoding.describe(value))"))
                    continue
                }
                if name == "dryRun" { request.dryRun = flag } else { request.returnIds = flag }
            default:
                errors.append(FieldError(field: name, message: "unknown field: expected exclude, set, dryRun or returnIds"))
            }
        }
        guard errors.isEmpty else { throw .invalidFields(errors) }
        return request
    }

    /// `_id`s only: a clone links its root to existing objects; it does not create new ones from the body.
    static func decodeLinks(_ value: JSONValue, _ relationship: RelationshipDescription, field: String, errors: inout [FieldError]) -> RelationshipIDs? {
        func id(_ json: JSONValue) -> Int64? {
            if case .integer(let id) = json, id > 0 { return id }
            return nil
        }
        if relationship.isToMany {
            guard case .array(let elements) = value else {
                errors.append(FieldError(field: field, message: "expected an array of \(relationship.destination) _ids, got \(RecordJSONCoding.describe(value))"))
                return nil
            }
            var ids: [Int64] = []
            for (position, element) in elements.enumerated() {
                guard let id = id(element) else {
                    errors.append(FieldError(field: "\(field)[\(position)]", message: "expected a \(relationship.destination) _id (positive integer), got \(RecordJSONCoding.describe(element))"))
                    return nil
                }
                guard !ids.contains(id) else {
                    errors.append(FieldError(field: "\(field)[\(position)]", message: "\(relationship.destination) \(id) is listed twice"))
                    return nil
                }
                ids.append(id)
            }
            return .toMany(ids)
        }
        if case .null = value {
            guard relationship.isOptional else {
                errors.append(FieldError(field: field, message: "must not be null"))
                return nil
            }
            return .toOne(nil)
        }
        guard let id = id(value) else {
            errors.append(FieldError(field: field, message: "expected a \(relationship.destination) _id (positive integer) or null, got \(RecordJSONCoding.describe(value))"))
            return nil
        }
        return .toOne(id)
    }

    struct ExclusionProblem: Error { var text: String }

    /// A bare name applies to the root entity; `Entity.property` to that entity (DESIGN.md §3 rule 6).
    static func resolveExclusion(_ text: String, root: EntityDescription, model: DataModel) -> Result<Exclusion, ExclusionProblem> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard root.hasProperty(named: text) else {
                return .failure(ExclusionProblem(text: "\(root.name) has no attribute or relationship named \"\(text)\""))
            }
            return .success(Exclusion(entity: root.name, property: text, isQualified: false))
        case 2:
            let entityName = String(parts[0]), property = String(parts[1])
            guard let entity = model.entity(named: entityName) else {
                return .failure(ExclusionProblem(text: "the model has no entity named \"\(entityName)\""))
            }
            guard entity.hasProperty(named: property) else {
                return .failure(ExclusionProblem(text: "\(entityName) has no attribute or relationship named \"\(property)\""))
            }
            return .success(Exclusion(entity: entityName, property: property, isQualified: true))
        default:
            return .failure(ExclusionProblem(text: "expected \"property\" or \"Entity.property\", got \"\(text)\""))
        }
    }
}
