import ClonerHTTP
import ClonerModel

/// The parts of a request on `/{collection}/{id}…` that the record and clone routes read alike.
extension HTTPRequest {
    /// The entity the `{collection}` parameter names; a 404 listing the collections otherwise.
    func entity(in model: DataModel) throws(Problem) -> EntityDescription {
        let collection = parameter("collection") ?? ""
        if let abstract = model.abstractEntity(forCollection: collection) {
            let concrete = abstract.concreteEntities.compactMap { model.entity(named: $0).map { "/\($0.collection)" } }
            throw Problem(
                code: .methodNotAllowed,
                detail:
                    "\(abstract.name) is abstract: /\(collection) only lists and reads the objects of its concrete entities; create, change, delete, clone, export and import them in their own collections: \(concrete.joined(separator: ", "))"
            )
        }
        guard let entity = model.entity(forCollection: collection) else {
            throw Problem.notFound("no collection named \(collection); the collections are " + model.entities.map(\.collection).joined(separator: ", "))
        }
        return entity
    }

    /// The `{id}` parameter as an `_id` of `entity`; a 404 when it cannot be one.
    func objectID(of entity: EntityDescription) throws(Problem) -> Int64 {
        let text = parameter("id") ?? ""
        guard let id = Int64(text), id > 0 else { throw Problem.notFound("\(entity.name) \(text) does not exist: an _id is a positive integer") }
        return id
    }

    /// A JSON body is required to say it is JSON (RFC 9110 §8.3); a form-encoded body sent by
    /// `curl -d` without a header gets a 415 that says what to add, not a confusing parse error.
    func requireJSONBody() throws(Problem) {
        guard !body.isEmpty else { return }
        let type = headers["Content-Type"]?.lowercased()
        guard let type, type.hasPrefix("application/json") || type.contains("+json") else {
            throw Problem.unsupportedMediaType(headers["Content-Type"])
        }
    }
}
