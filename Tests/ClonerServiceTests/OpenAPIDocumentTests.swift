@testable import ClonerService
import ClonerHTTP
import ClonerModel
import ClonerTestSupport
import Foundation
import Testing

/// The description the service serves: the repository's generic document specialised to the loaded
/// model, exact enough for a client generator.
@Suite struct OpenAPIDocumentTests {
    static let model: DataModel = {
        try! ModelLoader.load(contentsOf: repositoryRoot.appendingPathComponent("config/model.json"))
    }()

    static func served(requiresKeys: Bool, storeName: String = "SQLite") throws -> [String: Any] {
        let bytes = OpenAPIDocument.specialized(
            for: model,
            deployment: .init(
                requiresKeys: requiresKeys, storeName: storeName,
                filterableToOnes: { entity in
                    entity.relationships.filter { !$0.isToMany }.map(\.name)
                }))
        return try YAMLReader.parse(bytes)
    }

    /// The binary embeds the repository's file (through a symlink), so the two never drift apart.
    /// (Which routes it describes is OpenAPIConformanceTests' business.)
    @Test func embeddedCopyIsTheTopLevelFile() throws {
        let topLevel = try Data(contentsOf: repositoryRoot.appendingPathComponent("openapi.yaml"))
        #expect(OpenAPIDocument.bytes == [UInt8](topLevel))
        #expect(OpenAPIDocument.bytes.starts(with: Array("openapi: 3.1.0\n".utf8)))
    }

    /// The template names both stores; a served document the one its deployment uses.
    @Test func theSummaryNamesTheDeploymentsStore() throws {
        for store in ["SQLite", "PostgreSQL"] {
            let info = try #require(try Self.served(requiresKeys: false, storeName: store)["info"] as? [String: Any])
            #expect(info["summary"] as? String == "Deep-copies records of an object graph stored in \(store).")
        }
        let template = try #require(try YAMLReader.parse(OpenAPIDocument.bytes)["info"] as? [String: Any])
        #expect(template["summary"] as? String == "Deep-copies records of an object graph stored in SQLite or PostgreSQL.")
    }

    @Test func everyCollectionHasItsOwnOperationsAndNoGenericOnesRemain() throws {
        let document = try Self.served(requiresKeys: true)
        let paths = try #require(document["paths"] as? [String: Any])
        for entity in Self.model.entities {
            #expect(paths["/\(entity.collection)"] != nil, "no path for \(entity.collection)")
            #expect(paths["/\(entity.collection)/{id}"] != nil)
            #expect(paths["/\(entity.collection)/{id}/clone"] != nil)
            #expect(paths["/\(entity.collection)/{id}/clones"] != nil)
        }
        #expect(paths.keys.allSatisfy { !$0.contains("{collection}") }, "generic paths left: \(paths.keys.sorted())")
        for fixed in ["/jobs", "/jobs/{id}/events", "/jobs/{id}", "/model", "/openapi.yaml", "/healthz", "/readyz", "/metrics"] {
            #expect(paths[fixed] != nil, "\(fixed) lost")
        }
        let components = try #require(document["components"] as? [String: Any])
        #expect(components["links"] == nil, "links to generic operations must go with them")
        // Every operationId is unique, and every $ref points at something that exists.
        var operationIDs: [String] = []
        for item in paths.values.compactMap({ $0 as? [String: Any] }) {
            for operation in item.values.compactMap({ $0 as? [String: Any] }) {
                if let id = operation["operationId"] as? String { operationIDs.append(id) }
            }
        }
        var references: Set<String> = []
        var linkTargets: Set<String> = []
        Self.walk(document) { key, value in
            if key == "$ref", let target = value as? String { references.insert(target) }
            if key == "operationId", let target = value as? String { linkTargets.insert(target) }
        }
        #expect(linkTargets.isSubset(of: Set(operationIDs)), "links name missing operations: \(linkTargets.subtracting(operationIDs))")
        #expect(Set(operationIDs).count == operationIDs.count, "duplicate operationIds")
        #expect(operationIDs.contains("createNote") && operationIDs.contains("cloneItem"))
        for reference in references {
            let parts = reference.dropFirst(2).split(separator: "/").map(String.init)
            var node: Any? = document
            for part in parts { node = (node as? [String: Any])?[part] }
            #expect(node != nil, "dangling $ref \(reference)")
        }
    }

    @Test func bodiesNameExactlyTheEntitysProperties() throws {
        let document = try Self.served(requiresKeys: false)
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let note = try #require(Self.model.entity(named: "Note"))
        let names = Set(note.attributes.map(\.name) + note.relationships.map(\.name))

        let update = try #require(schemas["NoteUpdate"] as? [String: Any])
        #expect(update["additionalProperties"] as? Bool == false)
        let updateNames = Set(try #require(update["properties"] as? [String: Any]).keys)
        #expect(updateNames == names.union(["_entity", "_id", "_version"]))

        let create = try #require(schemas["NoteCreate"] as? [String: Any])
        #expect(create["additionalProperties"] as? Bool == false)
        #expect(Set(try #require(create["properties"] as? [String: Any]).keys) == names.union(["_entity"]))
        let required = Set(create["required"] as? [String] ?? [])
        #expect(required == Set(note.attributes.filter { !$0.acceptsBlank }.map(\.name)))

        let record = try #require(schemas["NoteRecord"] as? [String: Any])
        #expect(Set(record["required"] as? [String] ?? []) == names.union(["_id", "_entity", "_version"]))

        let clone = try #require(schemas["NoteCloneRequest"] as? [String: Any])
        let set = try #require((clone["properties"] as? [String: Any])?["set"] as? [String: Any])
        #expect(set["additionalProperties"] as? Bool == false)
        #expect(Set(try #require(set["properties"] as? [String: Any]).keys) == names)
    }

    /// An update clears an optional attribute or a to-one relationship with null, wrapped in a
    /// `oneOf` (a nullable property alone becomes an optional that generated clients leave out when
    /// nil); relationship values are `oneOf`, which generators turn into an enum.
    @Test func updatesCanSendNullAndRelationshipsAreOneOf() throws {
        let document = try Self.served(requiresKeys: false)
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let update = try #require((schemas["NoteUpdate"] as? [String: Any])?["properties"] as? [String: Any])
        let name = try #require((update["name"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        #expect(name.count == 1 && name.first?["type"] as? [String] == ["string", "null"])
        #expect((update["index"] as? [String: Any])?["type"] as? String == "integer", "a required attribute is not nullable")
        let template = try #require((update["template"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        #expect(template.first?["type"] as? [String] == ["integer", "null"])
        #expect(template.last?["$ref"] as? String == "#/components/schemas/NoteCreate")
        let items = try #require(((update["items"] as? [String: Any])?["items"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        #expect(items.compactMap { $0["$ref"] as? String } == ["#/components/schemas/ObjectID", "#/components/schemas/ItemCreate"])
        let set = try #require(
            (((schemas["NoteCloneRequest"] as? [String: Any])?["properties"] as? [String: Any])?["set"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(((set["template"] as? [String: Any])?["oneOf"] as? [[String: Any]])?.first?["type"] as? [String] == ["integer", "null"])
        var anyOfs = 0
        Self.walk(document) { key, _ in if key == "anyOf" { anyOfs += 1 } }
        #expect(anyOfs == 0, "anyOf left in the served document")
    }

    /// Answers may gain properties (a model grows): no schema an answer uses refuses unknown ones,
    /// while request bodies still do.
    @Test func responseSchemasAreOpen() throws {
        let document = try Self.served(requiresKeys: true)
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        var responseSchemas: [Any] = []
        Self.walk(document) { key, value in
            guard key == "responses", let responses = value as? [String: Any] else { return }
            for response in responses.values {
                if let content = (response as? [String: Any])?["content"] { responseSchemas.append(content) }
            }
        }
        Self.walk(components["responses"] as Any) { key, value in if key == "content" { responseSchemas.append(value) } }
        var visited: Set<String> = []
        var pending = responseSchemas
        var closed: [String] = []
        while let node = pending.popLast() {
            Self.walk(node) { key, value in
                if key == "additionalProperties", value as? Bool == false { closed.append("\(node)".prefix(120).description) }
                if key == "$ref", let target = value as? String, target.hasPrefix("#/components/schemas/") {
                    let name = String(target.dropFirst("#/components/schemas/".count))
                    if visited.insert(name).inserted, let schema = schemas[name] { pending.append(["schema": schema]) }
                }
            }
        }
        #expect(visited.isSuperset(of: ["NoteRecord", "CloneResult", "Job", "ProblemAnswer", "Problem", "EntityRef", "Model"]), "\(visited.sorted())")
        #expect(closed.isEmpty, "closed response schemas: \(closed)")
        #expect((schemas["NoteCreate"] as? [String: Any])?["additionalProperties"] as? Bool == false, "request bodies stay closed")
    }

    /// Every `const` and `enum` says its type (generators leave an untyped one untyped), and a
    /// problem is one object rather than an `allOf`.
    @Test func constantsAreTypedAndProblemsAreOneObject() throws {
        let document = try Self.served(requiresKeys: true)
        var untyped: [String] = []
        Self.walkObjects(document) { object in
            guard object["const"] != nil || object["enum"] != nil, object["type"] == nil else { return }
            untyped.append("\(object)".prefix(100).description)
        }
        #expect(untyped.isEmpty, "const/enum without type: \(untyped)")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let answer = try #require(schemas["ProblemAnswer"] as? [String: Any])
        #expect(answer["allOf"] == nil && answer["type"] as? String == "object")
        #expect(Set((answer["properties"] as? [String: Any] ?? [:]).keys).isSuperset(of: ["type", "title", "status", "detail", "code", "requestId"]))
        #expect((answer["required"] as? [String])?.contains("requestId") == true)
        let clone = try #require((schemas["CloneResult"] as? [String: Any])?["properties"] as? [String: Any])
        #expect((clone["clone"] as? [String: Any])?["type"] as? [String] == ["object", "null"])
        #expect((clone["clones"] as? [String: Any])?["type"] as? [String] == ["array", "null"])
        var nullBranches = 0
        Self.walkObjects(document) { object in
            for branch in (object["oneOf"] as? [[String: Any]] ?? []) where branch["type"] as? String == "null" { nullBranches += 1 }
        }
        #expect(nullBranches == 0, "a {type: null} branch is skipped by generators")
    }

    /// Every header the service sends is declared, so a typed client has a field for it.
    @Test func headersTheServiceSendsAreDeclared() throws {
        let document = try Self.served(requiresKeys: true)
        let responses = try #require((document["components"] as? [String: Any])?["responses"] as? [String: Any])
        func headers(_ name: String) -> Set<String> {
            Set(((responses[name] as? [String: Any])?["headers"] as? [String: Any])?.keys.map { $0 } ?? [])
        }
        #expect(headers("Conflict").isSuperset(of: ["Retry-After", "X-Request-ID"]))
        #expect(headers("Error").isSuperset(of: ["Allow", "Retry-After", "X-Request-ID"]))
        #expect(headers("Unauthorized").isSuperset(of: ["WWW-Authenticate", "X-Request-ID"]))
        let created = try #require(
            ((((document["paths"] as? [String: Any])?["/notes/{id}/clone"] as? [String: Any])?["post"] as? [String: Any])?["responses"] as? [String: Any])?[
                "201"] as? [String: Any])
        #expect(Set((created["headers"] as? [String: Any])?.keys.map { $0 } ?? []) == ["Location", "Idempotent-Replayed", "X-Request-ID"])
    }

    /// The `servers` URL is the request's `Host` only when that is a plain host and port.
    @Test func serverURLIsTheRequestedAddressWhenPlain() {
        func url(_ host: String?, secure: Bool = false) -> String {
            OpenAPIDocument.serverURL(
                for: HTTPRequest(
                    method: .get, target: "/openapi.yaml",
                    headers: host.map { ["Host": $0] } ?? [:], isSecure: secure))
        }
        #expect(url("api.example.com") == "http://api.example.com")
        #expect(url("api.example.com:8443", secure: true) == "https://api.example.com:8443")
        #expect(url("127.0.0.1:8080") == "http://127.0.0.1:8080")
        #expect(url("[::1]:8080") == "http://[::1]:8080")
        for unsafe in [
            nil, "", "a b", "a\"b", "evil.com/x", "a.com:80:80", "a.com:", "a.com:123456", "[::1", "[x]", "-a.com",
            "user@a.com", "a.com#", "{{x}}", "a.com\nservers:",
        ] {
            #expect(url(unsafe) == "/", "Host \(String(describing: unsafe)) reflected")
        }
        let slot = OpenAPIDocument.ServerURLSlot(document: Array("openapi: 3.1.0\nservers:\n  - url: http://127.0.0.1:8080\nsecurity:\n".utf8))
        #expect(String(decoding: slot.document(serverURL: "http://h:1"), as: UTF8.self) == "openapi: 3.1.0\nservers:\n  - url: http://h:1\nsecurity:\n")
    }

    @Test func securitySaysWhetherThisDeploymentAsksForKeys() throws {
        let withKeys = try Self.served(requiresKeys: true)
        #expect((withKeys["security"] as? [[String: Any]])?.map { Set($0.keys) } == [["apiKey"]])
        let open = try Self.served(requiresKeys: false)
        #expect((open["security"] as? [[String: Any]])?.map(\.count) == [0])
    }

    /// The repository's generic document itself: keys described as optional, no example that links
    /// a record a fresh database lacks.
    @Test func theRepositoryDocumentDescribesBothSecurityModes() throws {
        let document = try YAMLReader.parse(Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("openapi.yaml"))))
        let security = try #require(document["security"] as? [[String: Any]])
        #expect(security.map { Set($0.keys) } == [[], ["apiKey"]])
    }

    static func walkObjects(_ node: Any, _ visit: ([String: Any]) -> Void) {
        if let object = node as? [String: Any] {
            visit(object)
            for value in object.values { walkObjects(value, visit) }
        } else if let array = node as? [Any] {
            for element in array { walkObjects(element, visit) }
        }
    }

    static func walk(_ node: Any, _ visit: (String, Any) -> Void) {
        if let object = node as? [String: Any] {
            for (key, value) in object {
                visit(key, value)
                walk(value, visit)
            }
        } else if let array = node as? [Any] {
            for element in array { walk(element, visit) }
        }
    }
}

/// Reads YAML with a real parser (PyYAML, which the conformance venv and Debian's python3-yaml
/// provide), turning it into JSON that Foundation reads. A hand-written reader would only confirm
/// what the generator already assumes.
enum YAMLReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ bytes: [UInt8]) throws -> [String: Any] {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("document.yaml")
        try Data(bytes).write(to: input)
        let output = folder.url.appendingPathComponent("document.json")
        let outcome = try ShortCommand.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import json, sys, yaml
                with open(sys.argv[1]) as f: document = yaml.safe_load(f)
                with open(sys.argv[2], "w") as f: json.dump(document, f, default=str)
                """, input.path, output.path,
            ])
        guard outcome.status == 0 else {
            throw Failure(description: "python3 could not read the YAML: \(String(decoding: outcome.errors, as: UTF8.self))")
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any] else {
            throw Failure(description: "the YAML document is not a mapping")
        }
        return object
    }
}
