import Testing
import ClonerModel
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation

/// The repository's top level (tests may run from any directory).
let repositoryRoot: URL = Repository.root

/// A Note/Item model like the sample in config/model.json, plus a Tag entity for many-to-many and a required relationship.
let sampleModel: DataModel = {
    let note = EntityDescription(
        name: "Note", collection: "notes",
        attributes: [
            AttributeDescription(name: "id", type: .uuid),
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "createDate", type: .date),
            AttributeDescription(name: "index", type: .integer, defaultValue: .integer(0)),
            AttributeDescription(name: "data", type: .binary, isOptional: true),
            AttributeDescription(name: "score", type: .double, isOptional: true),
            AttributeDescription(name: "pinned", type: .boolean, defaultValue: .boolean(false)),
            AttributeDescription(name: "extra", type: .json, isOptional: true),
        ],
        relationships: [
            RelationshipDescription(name: "items", destination: "Item", isToMany: true, isOrdered: true, inverseName: "note", deleteRule: .cascade),
            RelationshipDescription(name: "tags", destination: "Tag", isToMany: true, inverseName: "notes"),
        ])
    let item = EntityDescription(
        name: "Item", collection: "items",
        attributes: [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "noteID", type: .uuid, isOptional: true),
        ],
        relationships: [
            RelationshipDescription(name: "note", destination: "Note", inverseName: "items", isOptional: false)
        ])
    let tag = EntityDescription(
        name: "Tag",
        attributes: [AttributeDescription(name: "label", type: .string, isUnique: true)],
        relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverseName: "tags")])
    return DataModel(entities: [note, item, tag])
}()

/// Parses JSON with Foundation, independently of the service's own parser, to check its output.
func foundationJSON(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
}

/// SHA-256 of `text` as lower-case hex, computed by the `openssl` command-line tool, so tests
/// check the service's digests against an independent implementation.
func opensslSHA256Hex(_ text: String) throws -> String {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.url.appendingPathComponent("text").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    let digest = try ShortCommand.run("/usr/bin/openssl", ["dgst", "-sha256", "-r", path]).output
    return String(String(decoding: digest, as: UTF8.self).prefix(64)).lowercased()
}
