@testable import ClonerService
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
        let bytes = OpenAPIDocument.specialized(for: model, deployment: .init(requiresKeys: requiresKeys, storeName: storeName, filterableToOnes: { entity in
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
        }
        #expect(paths.keys.allSatisfy { !$0.contains("{collection}") }, "generic paths left: \(paths.keys.sorted())")
        for fixed in ["/jobs/{id}", "/model", "/openapi.yaml", "/healthz", "/readyz", "/metrics"] {
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import json, sys, yaml
            with open(sys.argv[1]) as f: document = yaml.safe_load(f)
            with open(sys.argv[2], "w") as f: json.dump(document, f, default=str)
            """, input.path, output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 could not read the YAML: \(String(decoding: message, as: UTF8.self))")
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any] else {
            throw Failure(description: "the YAML document is not a mapping")
        }
        return object
    }
}
