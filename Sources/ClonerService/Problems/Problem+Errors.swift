import ClonerClone
import ClonerStore
import ClonerTravel

/// What the store's and the clone engine's errors mean to a client.
extension Problem {
    enum Operation {
        case read, write, delete
    }

    /// The problem for an error thrown by the store or the engine, or nil for an unexpected error
    /// (a 500 whose details go to the log, never to the client).
    static func from(_ error: any Error, during operation: Operation = .write) -> Problem? {
        switch error {
        case let problem as Problem:
            return problem
        case let error as StoreError:
            return from(error, during: operation)
        case let error as CloneError:
            return from(error)
        case let error as GraphImportError:
            return from(error)
        default:
            return nil
        }
    }

    private static func from(_ error: StoreError, during operation: Operation) -> Problem? {
        switch error {
        case let .notFound(entity, id):
            return .notFound("\(entity) \(id) does not exist")
        case let .versionConflict(entity, id, expected, actual):
            return .preconditionFailed("\(entity) \(id) is at version \(actual), not \(expected) (If-Match)")
        case let .uniqueViolation(entity, attribute):
            return .conflict("\(entity).\(attribute) must be unique and the value is already used", field: attribute)
        case let .uniqueTogetherViolation(entity, attributes):
            return uniqueTogether(entity, attributes, "must be unique together and this combination of values is already used")
        case let .deleteDenied(entity, id, relationship):
            return .conflict("\(entity) \(id) cannot be deleted while \(relationship) has related objects (delete rule deny)", field: relationship)
        case let .requiredRelationship(entity, relationship):
            if operation == .delete {
                return .conflict("\(entity).\(relationship) is required and would be left empty by this delete", field: relationship)
            }
            return .validationFailed([FieldError(field: relationship, message: "\(entity).\(relationship) is required")])
        case let .invalidValue(entity, property, reason):
            return .validationFailed([FieldError(field: property, message: "\(entity).\(property): \(reason)")])
        case let .unknownProperty(entity, property):
            return .validationFailed([FieldError(field: property, message: "\(entity) has no attribute or relationship named \(property)")])
        case let .danglingReference(entity, relationship, id):
            return .validationFailed([FieldError(field: relationship, message: "\(entity).\(relationship): no object with _id \(id)")])
        case .busy:
            return Problem(code: .serviceUnavailable, detail: "the database is busy with other writes (a long clone, perhaps); retry shortly")
        case let .unavailable(reason, outcomeUnknown):
            let detail =
                outcomeUnknown
                ? "the database was lost while this write committed, so it may or may not have been kept (\(reason)); "
                    + "retry with the same Idempotency-Key to learn which, or read what it would have written before repeating it"
                : "the database cannot take writes now (\(reason)): no primary answers, a failover may be under way; retry shortly"
            return Problem(code: .databaseUnavailable, detail: detail)
        case let .database(failure) where failure.isBusy:
            return Problem(code: .serviceUnavailable, detail: "the database is busy; retry shortly")
        case let .missingRootLink(relationship, copy, message):
            // Reached only outside a clone, which says it in the request's terms first.
            let field = (copy.map { "copies[\($0)]." } ?? "") + "set.\(relationship)"
            return .validationFailed([FieldError(field: field, message: message)])
        case let .tooLarge(objects, limit):
            return Problem(code: .tooManyObjects, detail: "the clone would create at least \(objects) objects; the limit is \(limit)")
        case let .inCopy(index, inner):
            return from(inner, during: operation).map { $0.inCopy(index) }
        case .incompatibleStore, .backendUnavailable, .migrationRefused, .database:
            return nil
        }
    }

    /// A document's line is named as `line <n>` and its member after a dot, so a client can open
    /// the file at the line: malformed JSON or a cut document is a 400, a line that is JSON but
    /// not what the format allows there a 422.
    private static func from(_ error: GraphImportError) -> Problem {
        switch error {
        case let .badLine(line, field, message, syntax):
            let at = field.isEmpty ? "line \(line)" : "line \(line).\(field)"
            if syntax { return Problem(code: .invalidJSON, detail: "\(at): \(message)", field: at) }
            return .validationFailed([FieldError(field: at, message: message)])
        case let .modelDifferences(list):
            return .validationFailed(
                list.map { FieldError(field: $0.property, message: $0.message) },
                detail: "the document's model differs from this service's: " + list.map(\.property).joined(separator: ", "))
        case let .unmatched(list):
            return .validationFailed(
                list.map { FieldError(field: $0.reference, message: $0.message) },
                detail: "\(list.count) shared object(s) of the document are not on this service; ask createMissing=true to create them")
        case let .wrongCollection(expected, found):
            return .validationFailed([
                FieldError(field: "root", message: "the document's root is a \(found); import it into the collection of \(found), not of \(expected)")
            ])
        case let .valueTooLarge(line, field, bytes, limit):
            return Problem(
                code: .payloadTooLarge,
                detail:
                    "line \(line).\(field) holds \(bytes) bytes; a text or json value holds at most \(limit), what a create's body can carry (http.maxBodyBytes)",
                field: "line \(line).\(field)")
        }
    }

    private static func from(_ error: CloneError) -> Problem {
        switch error {
        case let .rootNotFound(entity, id):
            return .notFound("\(entity) \(id) does not exist")
        case let .unknownEntity(name):
            return .notFound("no entity \(name)")
        case let .invalidRequest(field, message):
            return .validationFailed([FieldError(field: field, message: message)])
        case let .tooLarge(objects, limit):
            return Problem(code: .tooManyObjects, detail: "the clone would create at least \(objects) objects; the limit is \(limit)")
        case let .conflict(entity, attribute, atRoot):
            let remedy =
                atRoot
                ? "use set to give the root a new one, or give the attribute a rule in the model that makes one for every copy"
                : "the copied \(entity) is not the root, which is all set reaches: give the attribute a rule in the model that makes a new value on copy"
            return .conflict(
                "\(entity).\(attribute) must be unique and the clone would repeat a value; \(remedy) (rebuild: suffix for text, rebuild: uuid for a UUID), or exclude it if it may be left empty",
                field: attribute)
        case let .conflictTogether(entity, attributes, atRoot):
            let remedy =
                atRoot
                ? "use set to give the root new values, or give one of them a rule in the model that makes a new value on copy"
                : "the copied \(entity) is not the root, which is all set reaches: give one of them a rule in the model that makes a new value on copy (rebuild: suffix, rebuild: uuid)"
            return uniqueTogether(entity, attributes, "must be unique together and the clone would repeat a combination; \(remedy)")
        case let .inCopy(index, inner):
            return from(inner).inCopy(index)
        }
    }

    /// The same problem said of copy `index` of a request for many copies (docs/architecture.md#many-copies): the
    /// detail names the copy, and each field is prefixed `copies[index].` (a field that already
    /// names its copy is left alone).
    private func inCopy(_ index: Int) -> Problem {
        let prefix = "copies[\(index)]."
        let located = { (field: String) in field.hasPrefix("copies[") ? field : prefix + field }
        var problem = self
        problem.detail = "copy \(index) (copies[\(index)]): \(detail); nothing of any copy was written"
        problem.field = field.map(located)
        problem.errors = errors?.map { FieldError(field: located($0.field), message: $0.message) }
        return problem
    }

    /// A 409 naming every attribute of the `uniqueTogether` group, in `detail` and in `errors`.
    private static func uniqueTogether(_ entity: String, _ attributes: [String], _ reason: String) -> Problem {
        let names = attributes.map { "\(entity).\($0)" }.joined(separator: ", ")
        return Problem(
            code: .conflict, detail: "\(names) \(reason)",
            errors: attributes.map { FieldError(field: $0, message: "\(names) must be unique together") })
    }
}
