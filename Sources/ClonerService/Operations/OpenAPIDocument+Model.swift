import ClonerModel

/// The description as served: `openapi.yaml` speaks of records generically (`/{collection}`, any
/// property name), which no client generator or fuzzer can hold the service to. The service knows
/// its model, so it answers a document in which every collection has its own operations and every
/// body its exact schema — the names the service accepts and nothing else — and whose `security`
/// says whether this deployment asks for keys.
///
/// The generated parts are JSON, which YAML 1.2 reads as flow collections, so the template's text
/// is kept as written and only three of its sections are swapped. Built once at start-up.
extension OpenAPIDocument {
    /// What the document needs to know of the deployment besides the model.
    struct Deployment {
        /// Whether API keys are configured: `security` is then required, else absent.
        var requiresKeys: Bool
        /// The store this deployment keeps its records in ("SQLite", "PostgreSQL"), named by the
        /// summary: the template names both, a served document only the one in use.
        var storeName: String
        /// The to-one relationships a list can filter and order by (those stored on the entity).
        var filterableToOnes: (EntityDescription) -> [String]
    }

    static func specialized(for model: DataModel, deployment: Deployment) -> [UInt8] {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        replace(
            from: "security:", until: "tags:", in: &lines,
            with: ["security:", deployment.requiresKeys ? "  - apiKey: []" : "  - {}"])
        guard let summary = lines.firstIndex(where: { $0.hasPrefix("  summary: ") }) else {
            preconditionFailure("openapi.yaml lost its info summary")
        }
        lines[summary] = "  summary: Deep-copies records of an object graph stored in \(deployment.storeName)."
        var paths: [String] = []
        var schemas: [String] = []
        var named: Set<String> = []
        for entity in model.entities {
            let generator = EntityOperations(entity: entity, model: model, filterableToOnes: deployment.filterableToOnes(entity))
            for (path, item) in generator.pathItems() {
                paths.append("  " + JSONValue.string(path).canonicalText + ": " + item.canonicalText)
            }
            // A union of nested creates is the same wherever a field into its hierarchy asks for it.
            for (name, schema) in generator.schemas() where named.insert(name).inserted {
                schemas.append("    " + name + ": " + schema.canonicalText)
            }
        }
        for abstract in model.abstractEntities {
            // The to-ones every concrete entity stores as a column of one name filter it too.
            let concrete = abstract.concreteEntities.compactMap { model.entity(named: $0) }
            let toOnes = concrete.first.map { first in
                deployment.filterableToOnes(first).filter { name in
                    concrete.allSatisfy { $0.relationship(named: name) != nil && deployment.filterableToOnes($0).contains(name) }
                }
            }
            let generator = AbstractEntityOperations(abstract: abstract, model: model, filterableToOnes: toOnes ?? [])
            for (path, item) in generator.pathItems() { paths.append("  " + JSONValue.string(path).canonicalText + ": " + item.canonicalText) }
            for (name, schema) in generator.schemas() { schemas.append("    " + name + ": " + schema.canonicalText) }
        }
        replace(from: "  /{collection}:", until: "  /jobs:", in: &lines, with: paths)
        // The generic links name the generic operations, which the served document no longer has;
        // each generated operation carries its own.
        replace(from: "  links:", until: "  schemas:", in: &lines, with: [])
        replace(from: "  schemas:", until: "    ObjectID:", in: &lines, with: ["  schemas:"] + schemas)
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// Replaces the lines from the one equal to `from` up to (not including) the next one equal to
    /// `until`. The markers are lines of our own template at their indentation; a template without
    /// them is a programmer mistake that the document's tests catch.
    private static func replace(from: String, until: String, in lines: inout [String], with replacement: [String]) {
        guard let start = lines.firstIndex(of: from), let end = lines[(start + 1)...].firstIndex(of: until) else {
            preconditionFailure("openapi.yaml lost its `\(from)` … `\(until)` lines")
        }
        lines.replaceSubrange(start..<end, with: replacement)
    }
}

/// One entity's operations and schemas in the served description.
struct EntityOperations {
    let entity: EntityDescription
    let model: DataModel
    let filterableToOnes: [String]

    private var name: String { entity.name }
    private var collection: String { entity.collection }

    static func ref(_ path: String) -> JSONValue { ["$ref": .string(path)] }
    static func response(_ name: String) -> JSONValue { ref("#/components/responses/\(name)") }
    static func header(_ name: String) -> JSONValue { ref("#/components/headers/\(name)") }
    static func schema(_ name: String) -> JSONValue { ref("#/components/schemas/\(name)") }
    private static let objectID = schema("ObjectID")
    /// An `_id` or null, as one type list rather than a `oneOf` with a null branch: fuzzers that
    /// mutate a schema to make invalid data read the list right, and a `oneOf` less.
    private static let objectIDOrNull: JSONValue = ["type": ["integer", "null"], "format": "int64", "minimum": 1]
    private static func entityName(_ name: String) -> JSONValue { ["type": "string", "const": .string(name)] }
    static let requestID = ref("#/components/parameters/RequestID")
    /// A decimal's digits as answers write them and bodies may: an exponent is accepted on input
    /// too, but never written.
    private static let decimalPattern = #"^-?[0-9]+(\.[0-9]+)?$"#

    func schemas() -> [(String, JSONValue)] {
        [
            ("\(name)Record", recordSchema()), ("\(name)Create", inputSchema(create: true)),
            ("\(name)Update", inputSchema(create: false)), ("\(name)CloneRequest", cloneRequestSchema()),
        ]
            + entity.hierarchyFieldNames.map { nestedUnion(entity.relationshipParts(ofField: $0)) }
            // Named by the field, once for all its parts: a nested object leaves the whole field out.
            + entity.relationships.filter { Self.isNestedApart($0) }.map(\.fieldName).reduce(into: [String]()) { names, field in
                if !names.contains(field) { names.append(field) }
            }.map { (Self.nestedCreateName(entity: name, under: $0), inputSchema(create: true, under: $0)) }
    }

    /// Whether objects of this relationship's entity nested through its inverse get a create schema
    /// of their own: the relationship is required on create, yet a nested object must leave it out
    /// (the enclosing object sets it), so the plain `…Create` would require what the service refuses.
    private static func isNestedApart(_ relationship: RelationshipDescription) -> Bool {
        // A part of a relationship declared into a hierarchy is required as its declaration is.
        relationship.hasInverse
            && RecordInput.isRequiredOnCreate(relationship.isHierarchyPart ? RecordInput.declaredRelationship([relationship]) : relationship)
    }

    /// `AttachmentCreateUnderMemo`: an `Attachment` created nested in the object its `memo` links to.
    private static func nestedCreateName(entity: String, under link: String) -> String {
        "\(entity)CreateUnder" + link.prefix(1).uppercased() + link.dropFirst()
    }

    /// The create schema of a nested object of `relationship`'s destination.
    private func nestedCreate(_ relationship: RelationshipDescription) -> JSONValue {
        Self.schema(nestedCreateName(relationship))
    }

    private func nestedCreateName(_ relationship: RelationshipDescription) -> String {
        if let inverse = model.inverse(of: relationship), Self.isNestedApart(inverse) {
            return Self.nestedCreateName(entity: relationship.destination, under: inverse.fieldName)
        }
        return "\(relationship.destination)Create"
    }

    /// A new object of a field into a hierarchy: one of its concrete entities' create schemas (the
    /// object names its `_entity`), as a schema of its own — `BasePostCreate`, or
    /// `BasePostCreateUnderBlog` where the objects leave out the field that holds them. Named, not
    /// inline: a create schema may hold itself through such a field (a post's `previous` post),
    /// and client generators box a recursion between named schemas only.
    private func nestedUnion(_ parts: [RelationshipDescription]) -> (name: String, schema: JSONValue) {
        let names = parts.map(nestedCreateName)
        let destination = parts[0].declaration?.destination ?? parts[0].destination
        let plain = zip(parts, names).allSatisfy { $1 == "\($0.destination)Create" }
        let under = parts[0].declaration?.inverseName ?? ""
        let name = plain ? "\(destination)Create" : Self.nestedCreateName(entity: destination, under: under)
        return (name, ["oneOf": .array(names.map(Self.schema))])
    }

    func pathItems() -> [(String, JSONValue)] {
        [
            ("/\(collection)", collectionItem()), ("/\(collection)/{id}", recordItem()), ("/\(collection)/{id}/clone", cloneItem()),
            ("/\(collection)/{id}/export", exportItem()), ("/\(collection)/import", importItem()),
            ("/\(collection)/{id}/clones", clonesItem()),
        ]
            + entity.attributes.filter { $0.type == .binary }.map { ("/\(collection)/{id}/\($0.name)", binaryValueItem($0.name)) }
    }

    // MARK: Schemas

    /// An attribute's JSON form (docs/architecture.md#the-model-file: date RFC 3339, uuid canonical text, binary base64).
    static func valueSchema(_ attribute: AttributeDescription) -> JSONValue {
        var schema: [String: JSONValue]
        switch attribute.type {
        case .string: schema = ["type": "string"]
        case .integer: schema = ["type": "integer", "format": "int64"]
        case .double: schema = ["type": "number"]
        case .boolean: schema = ["type": "boolean"]
        case .date: schema = ["type": "string", "format": "date-time"]
        case .uuid: schema = ["type": "string", "format": "uuid"]
        case .binary: schema = ["type": "string", "contentEncoding": "base64"]
        case .json: return ["description": "Any JSON value, stored as written."]
        case .decimal:
            schema = [
                "type": "string", "format": "decimal", "pattern": .string(Self.decimalPattern),
                "description": "An exact decimal, its digits in a string (at most 38 significant ones); a JSON number is accepted on input.",
            ]
        }
        if attribute.isOptional, case .string(let type) = schema["type"] { schema["type"] = [.string(type), "null"] }
        return .object(schema)
    }

    /// A value in a request body that may be null, wrapped in a `oneOf`. A nullable property
    /// alone is read by generated clients as an optional they leave out when nil, so an update
    /// could never clear a value; as the (only or first) branch of a `oneOf` it becomes an enum
    /// case holding an optional, which sends `null` (`.case1(nil)` in a Swift client). The null
    /// stays in the branch's type list, which fuzzers read right (a separate null branch they
    /// took, in nested bodies, for a wrong type).
    static func nullable(_ schema: JSONValue) -> JSONValue { ["oneOf": [schema]] }

    /// An attribute value in an update or a clone's `set`: an optional attribute's clearable.
    static func inputValueSchema(_ attribute: AttributeDescription) -> JSONValue {
        attribute.isOptional ? nullable(valueSchema(attribute)) : valueSchema(attribute)
    }

    /// A record as answered: every property, always present.
    private func recordSchema() -> JSONValue {
        var properties: [String: JSONValue] = [
            "_id": Self.objectID, "_entity": Self.entityName(name), "_version": ["type": "integer", "format": "int64", "minimum": 1],
        ]
        for attribute in entity.attributes {
            var schema = Self.valueSchema(attribute)
            if attribute.type == .binary, case .object(var binary) = schema {
                // Null also when the value is past what the answer carries inline (`_blobs`).
                binary["type"] = ["string", "null"]
                binary["description"] = "Base64; null when past the answer's `maxInlineBinaryBytes`, with `_blobs` giving its size and route."
                schema = .object(binary)
            }
            properties[attribute.name] = schema
        }
        // A relationship declared into an inheritance hierarchy is one field for all its parts.
        for relationship in entity.relationships {
            properties[relationship.fieldName] =
                relationship.isToMany
                ? [
                    "type": "array", "items": Self.objectID, "maxItems": .integer(Int64(RecordJSONCoding.inlineListLimit)),
                    "description": .string("The first \(RecordJSONCoding.inlineListLimit) `_id`s; `_lists` tells of the rest."),
                ]
                : Self.objectIDOrNull
        }
        let required = properties.keys.sorted().map(JSONValue.string)
        if entity.relationships.contains(where: \.isToMany) {
            let list: JSONValue = [
                "type": "object", "required": ["count", "inline", "all"],
                "properties": [
                    "count": ["type": "integer", "minimum": .integer(Int64(RecordJSONCoding.inlineListLimit + 1))],
                    "inline": ["type": "integer"],
                    "all": [
                        "type": ["string", "null"],
                        "description": "The list route filtered by the inverse to-one: every linked object, paged in `_id` order; null for a many-to-many.",
                    ],
                ],
            ]
            properties["_lists"] = [
                "type": "object", "additionalProperties": list,
                "description": .string(
                    "Present when a to-many links more than \(RecordJSONCoding.inlineListLimit) objects: per such relationship, how many, and where they all are."
                ),
            ]
        }
        if entity.attributes.contains(where: { $0.type == .binary }) {
            properties["_blobs"] = [
                "type": "object",
                "additionalProperties": [
                    "type": "object", "required": ["size", "href"],
                    "properties": [
                        "size": ["type": "integer", "format": "int64", "minimum": 0],
                        "href": ["type": "string", "description": "The value's own route, which streams it (GET, ranges, ETag)."],
                    ],
                ],
                "description": .string(
                    "Present when binary values were left out of the answer (their members null): past `maxInlineBinaryBytes`, counted in record order. Per such attribute, its size and route."
                ),
            ]
        }
        // Only a clone's root has it (docs/architecture.md#lineage), so it is not required either.
        properties["_clonedFrom"] = Self.schema("ClonedFrom")
        // Open, as every answer's schema: a client generated today must still read a record after
        // the model gains a property. (`_lists` and `_blobs` are not required: they are there only for long lists and large values.)
        return [
            "type": "object",
            "required": .array(required), "properties": .object(properties),
        ]
    }

    /// A create or PATCH body: the entity's properties and nothing else. A relationship takes
    /// `_id`s to link or nested objects to create; a PATCH may echo `_id`/`_version` of the record.
    /// `required` is what the service requires: the attributes with no default that are not
    /// optional, the required to-ones, and the required to-manys with a `minCount`. An object
    /// nested `under` a relationship leaves that one out: the enclosing object sets it.
    private func inputSchema(create: Bool, under parentLink: String? = nil) -> JSONValue {
        var properties: [String: JSONValue] = ["_entity": Self.entityName(name)]
        if !create {
            properties["_id"] = Self.objectID
            properties["_version"] = ["type": "integer", "format": "int64", "minimum": 1]
        }
        var required: [JSONValue] = []
        for attribute in entity.attributes {
            // On create an optional attribute left out is null already; an update needs the branch.
            properties[attribute.name] = create ? Self.valueSchema(attribute) : Self.inputValueSchema(attribute)
            if let limit = entity.uniqueValueByteLimit(attribute), case .object(var schema) = properties[attribute.name] {
                schema["description"] = .string("Unique: at most \(limit) bytes (UTF-8 for text, decoded for binary), else 422 naming the field.")
                properties[attribute.name] = .object(schema)
            }
            if create && !attribute.acceptsBlank { required.append(.string(attribute.name)) }
        }
        for field in entity.hierarchyFieldNames {
            let parts = entity.relationshipParts(ofField: field)
            guard field != parentLink, !parts.contains(where: { $0.name == parentLink }) else { continue }
            let declared = RecordInput.declaredRelationship(parts)
            let nested = Self.schema(nestedUnion(parts).name)
            properties[field] =
                declared.isToMany
                ? Self.toManyInput(declared, items: ["oneOf": [Self.objectID, nested]])
                : ["oneOf": [declared.isOptional ? Self.objectIDOrNull : Self.objectID, nested]]
            if create && RecordInput.isRequiredOnCreate(declared) { required.append(.string(field)) }
        }
        for relationship in entity.relationships where relationship.name != parentLink && !relationship.isHierarchyPart {
            let nested = nestedCreate(relationship)
            properties[relationship.name] =
                relationship.isToMany
                ? Self.toManyInput(relationship, items: ["oneOf": [Self.objectID, nested]])
                : ["oneOf": [relationship.isOptional ? Self.objectIDOrNull : Self.objectID, nested]]
            if create && RecordInput.isRequiredOnCreate(relationship) { required.append(.string(relationship.name)) }
        }
        var schema: [String: JSONValue] = ["type": "object", "additionalProperties": false, "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required) }
        return .object(schema)
    }

    /// A to-many's array in a body, bounded as the service bounds it: `maxCount` always, `minCount`
    /// when the relationship is required (an optional one may also be empty, said in words).
    private static func toManyInput(_ relationship: RelationshipDescription, items: JSONValue) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "array", "items": items]
        if let most = relationship.maxCount { schema["maxItems"] = .integer(Int64(most)) }
        if let least = relationship.minCount, least > 0 {
            if relationship.isOptional {
                schema["description"] = .string("Empty, or at least \(least) (minCount); else 422 naming the field.")
            } else {
                schema["minItems"] = .integer(Int64(least))
            }
        }
        return .object(schema)
    }

    /// `exclude` names a root property or `Entity.property`; `set` takes the root's properties;
    /// `copies` a count or per-copy `set`s of the root's attributes and to-one relationships.
    private func cloneRequestSchema() -> JSONValue {
        // A relationship declared into a hierarchy is excluded by its field name, once.
        func fieldNames(_ entity: EntityDescription) -> [String] {
            var seen: Set<String> = []
            return entity.relationships.map(\.fieldName).filter { seen.insert($0).inserted }
        }
        var excludable: [JSONValue] = entity.attributes.map { .string($0.name) } + fieldNames(entity).map { .string($0) }
        for other in model.entities {
            excludable += other.attributes.map { .string("\(other.name).\($0.name)") }
            excludable += fieldNames(other).map { .string("\(other.name).\($0)") }
        }
        var settable: [String: JSONValue] = [:]
        for attribute in entity.attributes { settable[attribute.name] = Self.inputValueSchema(attribute) }
        // A relationship declared into a hierarchy is set by its field name, once (the store puts
        // each `_id` in its concrete entity's part).
        for field in fieldNames(entity) {
            guard let relationship = entity.storedRelationships(ofField: field).first else { continue }
            settable[field] =
                relationship.isToMany
                ? ["type": "array", "items": Self.objectID]
                : Self.nullable(Self.objectIDOrNull)
        }
        let perCopySettable = settable.filter { name, _ in entity.storedRelationships(ofField: name).first?.isToMany != true }
        let copies: JSONValue = [
            "oneOf": [
                ["type": "integer", "minimum": 1],
                [
                    "type": "array", "minItems": 1,
                    "items": [
                        // `{}` is taken: a copy with the request's own values (the service accepts it).
                        "type": "object", "additionalProperties": false,
                        "properties": ["set": ["type": "object", "additionalProperties": false, "properties": .object(perCopySettable)]],
                    ],
                ],
            ]
        ]
        return [
            "type": "object", "additionalProperties": false,
            "properties": [
                "copies": copies,
                "exclude": ["type": "array", "items": ["type": "string", "enum": .array(excludable)]],
                "set": ["type": "object", "additionalProperties": false, "properties": .object(settable)],
                "dryRun": ["type": "boolean", "default": false],
                "returnIds": ["type": "boolean", "default": false],
            ],
        ]
    }

    // MARK: Operations

    static let errors: [String: JSONValue] = [
        "401": response("Unauthorized"), "404": response("NotFound"), "default": response("Error"),
    ]
    private static let writeErrors: [String: JSONValue] = errors.merging([
        "400": response("BadRequest"), "403": response("Forbidden"), "409": response("Conflict"),
        "413": response("PayloadTooLarge"), "415": response("UnsupportedMediaType"), "422": response("ValidationFailed"),
    ]) { $1 }

    static func json(_ schema: JSONValue) -> JSONValue { ["application/json": ["schema": schema]] }

    private var recordLinks: JSONValue {
        let parameters: JSONValue = ["id": "$response.body#/_id"]
        return [
            "Get\(name)": ["operationId": .string("get\(name)"), "parameters": parameters],
            "Update\(name)": ["operationId": .string("update\(name)"), "parameters": parameters],
            "Clone\(name)": ["operationId": .string("clone\(name)"), "parameters": parameters],
        ]
    }

    private func collectionItem() -> JSONValue {
        var parameters: [JSONValue] = [
            ["name": "limit", "in": "query", "schema": ["type": "integer", "minimum": 1, "maximum": 1000, "default": 50]],
            [
                "name": "after", "in": "query", "description": "An `_id` to start after (under the default order it needs no record).",
                "schema": ["type": "integer", "format": "int64", "minimum": 1],
            ],
            [
                "name": "cursor", "in": "query", "description": "The position the previous page's `next` URL carries; not with `after`.",
                "schema": ["type": "string", "pattern": "^[A-Za-z0-9_-]+$"],
            ],
            [
                "name": "order", "in": "query",
                "description": .string(
                    "Comma-separated property names, `-` for descending; each named once, at most \(RecordsController.maximumOrderKeys) (else 422 naming `order`)."
                ),
                "schema": ["type": "string"],
            ],
            [
                "name": "count", "in": "query",
                "description": "`true` adds `count`, the records the filters match; it visits every one of them.",
                "schema": ["type": "boolean", "default": false],
            ],
        ]
        // A property named like a control (`order`, `limit`) is filtered only by its explicit
        // `where.` form, so no parameter is listed twice; every other one by its plain name.
        for attribute in entity.attributes {
            parameters.append([
                "name": .string(ListQuery.filterParameter(attribute.name)), "in": "query",
                "description": "Equality filter, in the attribute's text form.",
                "schema": ["type": "string"],
            ])
        }
        for relationship in filterableToOnes {
            parameters.append([
                "name": .string(ListQuery.filterParameter(relationship)), "in": "query",
                "description": "Equality filter: an `_id` or `null`.",
                "schema": ["type": "string", "pattern": "^([1-9][0-9]{0,18}|null)$"],
            ])
        }
        let page: JSONValue = [
            "type": "object", "required": ["data", "next"],
            "properties": [
                "data": ["type": "array", "items": Self.schema("\(name)Record")],
                "next": [
                    "type": ["string", "null"], "description": "The next page (path and query), or null on the last page.",
                    "pattern": "^/[^?]+\\?(.+&)?cursor=[A-Za-z0-9_-]+$",
                ],
                "count": [
                    "type": "integer", "format": "int64", "minimum": 0,
                    "description": "With `count=true`: the records the filters match, on every page.",
                ],
            ],
        ]
        let created: JSONValue = [
            "description": "Created; `Location` is the new record.",
            "headers": ["Location": Self.header("RecordLocation"), "ETag": Self.header("ETag"), "X-Request-ID": Self.header("RequestID")],
            "content": Self.json(Self.schema("\(name)Record")),
            "links": recordLinks,
        ]
        return [
            "parameters": [Self.requestID],
            "get": [
                "tags": ["records"], "operationId": .string("list\(name)"), "summary": .string("List \(collection)."),
                "parameters": .array(parameters),
                "responses": .object(
                    Self.errors.merging([
                        "200": ["description": "One page.", "headers": ["X-Request-ID": Self.header("RequestID")], "content": Self.json(page)],
                        "400": Self.response("BadRequest"), "422": Self.response("ValidationFailed"),
                    ]) { $1 }),
            ],
            "post": [
                "tags": ["records"], "operationId": .string("create\(name)"), "summary": .string("Create a \(name), with nested objects."),
                "requestBody": ["required": true, "content": Self.json(Self.schema("\(name)Create"))],
                "responses": .object(Self.writeErrors.merging(["201": created]) { $1 }),
            ],
        ]
    }

    private func recordItem() -> JSONValue {
        let record: JSONValue = [
            "description": "The record.",
            "headers": ["ETag": Self.header("ETag"), "X-Request-ID": Self.header("RequestID")],
            "content": Self.json(Self.schema("\(name)Record")),
        ]
        let notModified: JSONValue = [
            "description": "The client's copy (If-None-Match) is current.",
            "headers": ["ETag": Self.header("ETag"), "X-Request-ID": Self.header("RequestID")],
        ]
        let ifNoneMatch: JSONValue = ["name": "If-None-Match", "in": "header", "schema": ["type": "string"]]
        let ifMatch = Self.ref("#/components/parameters/IfMatch")
        return [
            "parameters": [Self.ref("#/components/parameters/ID"), Self.requestID],
            "get": [
                "tags": ["records"], "operationId": .string("get\(name)"), "summary": .string("One \(name)."),
                "parameters": [ifNoneMatch],
                "responses": .object(Self.errors.merging(["200": record, "304": notModified]) { $1 }),
            ],
            "patch": [
                "tags": ["records"], "operationId": .string("update\(name)"), "summary": .string("Update a \(name) in part."),
                "parameters": [ifMatch],
                "requestBody": ["required": false, "content": Self.json(Self.schema("\(name)Update"))],
                "responses": .object(Self.writeErrors.merging(["200": record, "412": Self.response("PreconditionFailed")]) { $1 }),
            ],
            "delete": [
                "tags": ["records"], "operationId": .string("delete\(name)"), "summary": .string("Delete a \(name) with the delete rules."),
                "parameters": [ifMatch],
                "responses": .object(
                    Self.errors.merging([
                        "204": ["description": "Deleted.", "headers": ["X-Request-ID": Self.header("RequestID")]],
                        "400": Self.response("BadRequest"), "403": Self.response("Forbidden"), "409": Self.response("Conflict"),
                        "412": Self.response("PreconditionFailed"),
                    ]) { $1 }),
            ],
        ]
    }

    /// A binary attribute as a resource of its own: GET (ranges, If-Range, 304) and a streamed PUT.
    private func binaryValueItem(_ attribute: String) -> JSONValue {
        let operation = name + attribute.prefix(1).uppercased() + attribute.dropFirst()
        let bytes: JSONValue = ["application/octet-stream": ["schema": ["type": "string", "format": "binary"]]]
        let tagged: JSONValue = ["ETag": Self.header("BlobETag"), "X-Request-ID": Self.header("RequestID")]
        let length = Self.header("BlobContentLength")
        let contentRange: JSONValue = [
            "description": "`bytes first-last/size`.", "required": true,
            "schema": ["type": "string", "pattern": "^bytes [0-9]+-[0-9]+/[0-9]+$"],
        ]
        return [
            "parameters": [Self.ref("#/components/parameters/ID"), Self.requestID],
            "get": [
                "tags": ["records"], "operationId": .string("get\(operation)"),
                "summary": .string("The bytes of a \(name)'s \(attribute); `ETag` is their SHA-256."),
                "parameters": [
                    ["name": "Range", "in": "header", "schema": ["type": "string"]],
                    ["name": "If-None-Match", "in": "header", "schema": ["type": "string"]],
                    ["name": "If-Range", "in": "header", "schema": ["type": "string"]],
                ],
                "responses": .object(
                    Self.errors.merging([
                        "200": [
                            "description": "The bytes.", "content": bytes,
                            "headers": ["ETag": Self.header("BlobETag"), "Content-Length": length, "X-Request-ID": Self.header("RequestID")],
                        ],
                        "206": [
                            "description": "The range asked for.", "content": bytes,
                            "headers": [
                                "ETag": Self.header("BlobETag"), "Content-Range": contentRange, "Content-Length": length,
                                "X-Request-ID": Self.header("RequestID"),
                            ],
                        ],
                        "304": ["description": "Not modified.", "headers": tagged],
                        "416": Self.response("RangeNotSatisfiable"),
                    ]) { $1 }),
            ],
            "put": [
                "tags": ["records"], "operationId": .string("put\(operation)"),
                "summary": .string("Replace a \(name)'s \(attribute) with the body's bytes, streamed."),
                "parameters": [Self.ref("#/components/parameters/IfMatch")],
                "requestBody": ["required": true, "content": bytes],
                "responses": .object(
                    Self.errors.merging([
                        "200": ["description": "Stored.", "headers": tagged, "content": Self.json(Self.schema("BinaryValueStored"))],
                        "400": Self.response("BadRequest"), "403": Self.response("Forbidden"),
                        "412": Self.response("PreconditionFailed"), "413": Self.response("PayloadTooLarge"),
                        "503": Self.response("UploadBudgetExhausted"),
                    ]) { $1 }),
            ],
        ]
    }

    private func cloneItem() -> JSONValue {
        let replayed = Self.header("IdempotentReplayed")
        let result = Self.json(Self.schema("CloneResult"))
        let responses: [String: JSONValue] = [
            "201": [
                "description": "Cloned; `Location` is the new root.", "content": result,
                "headers": ["Location": Self.header("RecordLocation"), "Idempotent-Replayed": replayed, "X-Request-ID": Self.header("RequestID")],
                "links": ["Get\(name)Clone": ["operationId": .string("get\(name)"), "parameters": ["id": "$response.body#/clone/id"]]],
            ],
            "200": [
                "description": "Dry run: the counts only.", "content": result,
                "headers": ["Idempotent-Replayed": replayed, "X-Request-ID": Self.header("RequestID")],
            ],
            "202": [
                "description": "Accepted as a job (`Prefer: respond-async`).", "content": Self.json(Self.schema("Job")),
                "headers": [
                    "Location": ["required": true, "schema": ["type": "string", "pattern": "^/jobs/[^/]+$"]],
                    "Idempotent-Replayed": replayed, "X-Request-ID": Self.header("RequestID"),
                ],
                "links": ["GetJob": ["operationId": "getJob", "parameters": ["id": "$response.body#/id"]]],
            ],
        ]
        return [
            "parameters": [Self.ref("#/components/parameters/ID"), Self.requestID],
            "post": [
                "tags": ["clone"], "operationId": .string("clone\(name)"),
                "summary": .string("Deep-clone a \(name) and what it owns, in one transaction."),
                "parameters": [
                    ["name": "Idempotency-Key", "in": "header", "schema": ["type": "string", "minLength": 1, "maxLength": 255]],
                    ["name": "Prefer", "in": "header", "schema": ["type": "string"]],
                ],
                "requestBody": ["required": false, "content": Self.json(Self.schema("\(name)CloneRequest"))],
                "responses": .object(Self.writeErrors.merging(responses) { $1 }),
            ],
        ]
    }

    /// docs/architecture.md#graphs-that-travel: the document is NDJSON, described as bytes (`format: binary`)
    /// so that generated clients stream it through as it is instead of decoding it as one value.
    private static let graphDocument: JSONValue = [
        "application/vnd.cloner.graph+x-ndjson": ["schema": ["type": "string", "format": "binary"]]
    ]
    private static let excludeQuery: JSONValue = [
        "name": "exclude", "in": "query", "description": "Comma-separated properties to leave out, as a clone's `exclude`.",
        "schema": ["type": "string"],
    ]

    private func exportItem() -> JSONValue {
        [
            "parameters": [Self.ref("#/components/parameters/ID"), Self.requestID],
            "get": [
                "tags": ["travel"], "operationId": .string("export\(name)"),
                "summary": .string("The graph a clone of a \(name) would copy, as a graph document (streamed)."),
                "parameters": [Self.excludeQuery],
                "responses": .object(
                    Self.errors.merging([
                        "200": ["description": "The document.", "content": Self.graphDocument, "headers": ["X-Request-ID": Self.header("RequestID")]],
                        "403": Self.response("Forbidden"), "422": Self.response("ValidationFailed"),
                    ]) { $1 }),
            ],
        ]
    }

    /// `GET /{collection}/{id}/clones` (docs/architecture.md#lineage): the clones of an object,
    /// newest first, paged as the jobs are.
    private func clonesItem() -> JSONValue {
        [
            "parameters": [Self.ref("#/components/parameters/ID"), Self.requestID],
            "get": [
                "tags": ["clone"], "operationId": .string("list\(name)Clones"),
                "summary": .string("The clones made from a \(name), newest first; still answered once it is deleted."),
                "parameters": [
                    [
                        "name": "limit", "in": "query", "description": "The most clones a page holds.",
                        "schema": ["type": "integer", "minimum": 1, "maximum": .integer(Int64(RecordsController.maximumPageSize)), "default": 50],
                    ],
                    [
                        "name": "cursor", "in": "query", "description": "Opaque position, as the `next` URL carries it.",
                        "schema": ["type": "string", "pattern": "^[A-Za-z0-9_-]+$"],
                    ],
                ],
                "responses": .object(
                    Self.errors.merging([
                        "200": [
                            "description": "One page of clones.", "headers": ["X-Request-ID": Self.header("RequestID")],
                            "content": Self.json(Self.schema("ClonePage")),
                        ],
                        "422": Self.response("ValidationFailed"),
                    ]) { $1 }),
            ],
        ]
    }

    private func importItem() -> JSONValue {
        let result = Self.json(Self.schema("ImportResult"))
        let flag = { (flag: String, text: String) -> JSONValue in
            ["name": .string(flag), "in": "query", "description": .string(text), "schema": ["type": "boolean", "default": false]]
        }
        return [
            "parameters": [Self.requestID],
            "post": [
                "tags": ["travel"], "operationId": .string("import\(name)"),
                "summary": .string("Create the graph of a document whose root is a \(name), with new ids, as a clone would."),
                "parameters": [
                    flag("dryRun", "Count and list conflicts; write nothing."), flag("returnIds", "Answer old → new ids."),
                    flag("createMissing", "Create shared objects this store lacks."), Self.excludeQuery,
                    ["name": "Idempotency-Key", "in": "header", "schema": ["type": "string", "minLength": 1, "maxLength": 255]],
                    ["name": "Prefer", "in": "header", "schema": ["type": "string"]],
                ],
                "requestBody": ["required": true, "content": Self.graphDocument],
                "responses": .object(
                    Self.writeErrors.merging([
                        "201": [
                            "description": "Imported; `Location` is the new root.", "content": result,
                            "headers": [
                                "Location": Self.header("RecordLocation"), "Idempotent-Replayed": Self.header("IdempotentReplayed"),
                                "X-Request-ID": Self.header("RequestID"),
                            ],
                        ],
                        "202": [
                            "description": "Accepted as a job (`Prefer: respond-async`).", "content": Self.json(Self.schema("Job")),
                            "headers": [
                                "Location": ["required": true, "schema": ["type": "string", "pattern": "^/jobs/[^/]+$"]],
                                "Idempotent-Replayed": Self.header("IdempotentReplayed"), "X-Request-ID": Self.header("RequestID"),
                            ],
                        ],
                        "200": [
                            "description": "Dry run: the counts and conflicts only.", "content": result,
                            "headers": ["Idempotent-Replayed": Self.header("IdempotentReplayed"), "X-Request-ID": Self.header("RequestID")],
                        ],
                    ]) { $1 }),
            ],
        ]
    }
}
