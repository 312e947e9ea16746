import ClonerModel

/// An abstract entity's read-only collection in the served description
/// (docs/architecture.md#relationships-into-a-hierarchy): `GET` of a page and of one object, each
/// object one of its concrete entities' records, told apart by `_entity`.
struct AbstractEntityOperations {
    let abstract: AbstractEntityDescription
    let model: DataModel
    /// The to-ones every concrete entity stores as a column of one name.
    let filterableToOnes: [String]

    private var name: String { abstract.name }
    private var collection: String { abstract.collection }
    private typealias Shared = EntityOperations

    func pathItems() -> [(String, JSONValue)] {
        [("/\(collection)", listItem()), ("/\(collection)/{id}", readItem())]
    }

    /// `BasePostRecord`: one of the concrete records, by `_entity`.
    func schemas() -> [(String, JSONValue)] {
        let concrete = abstract.concreteEntities
        var mapping: [String: JSONValue] = [:]
        for entity in concrete { mapping[entity] = .string("#/components/schemas/\(entity)Record") }
        let record: JSONValue = [
            "oneOf": .array(concrete.map { Shared.schema("\($0)Record") }),
            "discriminator": ["propertyName": "_entity", "mapping": .object(mapping)],
        ]
        return [("\(name)Record", record)]
    }

    private func listItem() -> JSONValue {
        var parameters: [JSONValue] = [
            [
                "name": "limit", "in": "query",
                "schema": ["type": "integer", "minimum": 1, "maximum": .integer(Int64(RecordsController.maximumPageSize)), "default": 50],
            ],
            ["name": "after", "in": "query", "description": "An `_id` to start after.", "schema": ["type": "integer", "format": "int64", "minimum": 1]],
            [
                "name": "count", "in": "query", "description": "`true` adds `count`, the objects the filters match.",
                "schema": ["type": "boolean", "default": false],
            ],
        ]
        for attribute in abstract.attributes {
            parameters.append([
                "name": .string(ListQuery.filterParameter(attribute.name)), "in": "query",
                "description": "Equality filter, in the attribute's text form.", "schema": ["type": "string"],
            ])
        }
        for relationship in filterableToOnes {
            parameters.append([
                "name": .string(ListQuery.filterParameter(relationship)), "in": "query", "description": "Equality filter: an `_id` or `null`.",
                "schema": ["type": "string", "pattern": "^([1-9][0-9]{0,18}|null)$"],
            ])
        }
        let page: JSONValue = [
            "type": "object", "required": ["data", "next"],
            "properties": [
                "data": ["type": "array", "items": Shared.schema("\(name)Record")],
                "next": [
                    "type": ["string", "null"], "description": "The next page (path and query), or null on the last page.",
                    "pattern": "^/[^?]+\\?(.+&)?after=[0-9]+$",
                ],
                "count": ["type": "integer", "format": "int64", "minimum": 0],
            ],
        ]
        let concrete = abstract.concreteEntities.compactMap { model.entity(named: $0).map { "/\($0.collection)" } }
        return [
            "parameters": [Shared.requestID],
            "get": [
                "tags": ["records"], "operationId": .string("list\(name)"),
                "summary": .string("List the objects of every concrete \(name) in `_id` order; they are written in \(concrete.joined(separator: ", "))."),
                "parameters": .array(parameters),
                "responses": .object(
                    Shared.errors.merging([
                        "200": ["description": "One page.", "headers": ["X-Request-ID": Shared.header("RequestID")], "content": Shared.json(page)],
                        "400": Shared.response("BadRequest"), "422": Shared.response("ValidationFailed"),
                    ]) { $1 }),
            ],
        ]
    }

    private func readItem() -> JSONValue {
        let record: JSONValue = [
            "description": "The object, as its concrete entity's record; `Content-Location` is its own route.",
            "headers": [
                "ETag": Shared.header("ETag"), "X-Request-ID": Shared.header("RequestID"),
                "Content-Location": ["schema": ["type": "string"]],
            ],
            "content": Shared.json(Shared.schema("\(name)Record")),
        ]
        let notModified: JSONValue = [
            "description": "The client's copy (If-None-Match) is current.",
            "headers": ["ETag": Shared.header("ETag"), "X-Request-ID": Shared.header("RequestID")],
        ]
        return [
            "parameters": [Shared.ref("#/components/parameters/ID"), Shared.requestID],
            "get": [
                "tags": ["records"], "operationId": .string("get\(name)"), "summary": .string("One \(name), of whichever concrete entity."),
                "parameters": [["name": "If-None-Match", "in": "header", "schema": ["type": "string"]]],
                "responses": .object(Shared.errors.merging(["200": record, "304": notModified]) { $1 }),
            ],
        ]
    }
}
