import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// Object lines are read straight from their bytes when they have the exporter's shape, and the
/// general way otherwise: every form a reader must take (members in any order, whitespace,
/// escapes, other JSON forms of a value) imports the same values, and a bad line is refused naming
/// its line and field, whichever way it was read. Real SQLite files.
@Suite struct GraphImportLineFormsTests {
    static let model = """
        { "entities": [
          { "name": "Box", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [ { "name": "things", "destination": "Thing", "toMany": true, "inverse": "box", "deleteRule": "cascade" } ] },
          { "name": "Thing", "attributes": [
              { "name": "s", "type": "string", "optional": true }, { "name": "i", "type": "integer", "optional": true },
              { "name": "d", "type": "double", "optional": true }, { "name": "b", "type": "boolean", "optional": true },
              { "name": "t", "type": "date", "optional": true }, { "name": "u", "type": "uuid", "optional": true },
              { "name": "bin", "type": "binary", "optional": true }, { "name": "j", "type": "json", "optional": true } ],
            "relationships": [ { "name": "box", "destination": "Box", "inverse": "things" } ] }
        ] }
        """

    static let header = """
        {"kind":"header","format":"cloner-graph","version":1,"fingerprint":"x","root":{"entity":"Box","ref":1},\
        "entities":{"Box":{"attributes":{"name":"string"},"relationships":{"things":{"destination":"Thing","toMany":true,\
        "ordered":false}},"key":null},"Thing":{"attributes":{"s":"string","i":"integer","d":"double","b":"boolean","t":"date",\
        "u":"uuid","bin":"binary","j":"json"},"relationships":{"box":{"destination":"Box","toMany":false,"ordered":false}},"key":null}}}
        """
    static let box = #"{"kind":"object","entity":"Box","ref":1,"parent":null,"attributes":{"name":"box"},"relationships":{"things":[1,2,3]}}"#

    /// Imports `lines` into `fixture`, the ids returned.
    static func importing(_ lines: [String], into fixture: CloneFixture) throws -> GraphImportResult {
        let box = fixture.store.model.entity(named: "Box")!
        var importer = try GraphImporter(schema: fixture.store.schema, root: box, options: GraphImportOptions(returnIDs: true))
        try importer.feed(Array(lines.joined(separator: "\n").utf8))
        try importer.finish()
        return try fixture.store.write { try importer.run(in: $0, now: Date()) }
    }

    @Test func everyFormOfAnObjectLineImportsItsValues() throws {
        let fixture = try CloneFixture(modelJSON: Self.model, .sqlite)
        let uuid = "0f0e0d0c-0b0a-4908-8706-050403020100"
        let lines = [
            Self.header, Self.box,
            // The exporter's shape, with a JSON object for the json attribute.
            #"{"kind":"object","entity":"Thing","ref":1,"parent":{"entity":"Box","ref":1},"attributes":{"s":"plain","i":7,"d":2.5,"#
                + #""b":true,"t":"2020-01-02T03:04:05.006Z","u":"\#(uuid)","bin":"AQID","j":{"a":[1,true]}},"relationships":{"box":1}}"#,
            // Members in another order, whitespace, an escape, an integer for a double, 1.0 for an
            // integer, an upper-case uuid, a date with an offset, a string for json, empty bytes.
            #"{ "relationships" : { "box" : 1 } , "attributes" : { "j" : "text", "bin" : "", "u" : "\#(uuid.uppercased())", "#
                + #""t" : "2020-01-02T05:04:05.006+02:00", "b" : false, "d" : 3, "i" : 1.0, "s" : "na\u006de\n" }, "#
                + #""parent" : { "ref" : 1, "entity" : "Box" }, "ref" : 2, "entity" : "Thing", "kind" : "object" }"#,
            // Nulls, a negative exponent, no parent member, an empty relationship list.
            #"{"kind":"object","entity":"Thing","ref":3,"attributes":{"s":null,"i":-12,"d":-1.5e-3,"bin":null},"relationships":{"box":null}}"#,
            #"{"kind":"end","objects":4,"references":0}"#,
        ]
        let outcome = try Self.importing(lines, into: fixture)
        let ids = try #require(outcome.result.ids?["Thing"])
        let date = AttributeValue.date(millisecondsSince1970: try #require(RFC3339Timestamp.parse("2020-01-02T03:04:05.006Z")))
        let first = try fixture.object("Thing", try #require(ids[1])).attributes
        #expect(first["s"] == .string("plain"))
        #expect(first["i"] == .integer(7))
        #expect(first["d"] == .double(2.5))
        #expect(first["b"] == .boolean(true))
        #expect(first["t"] == date)
        #expect(first["u"] == .uuid(try #require(UUID(uuidString: uuid))))
        #expect(first["bin"] == .binary(Data([1, 2, 3])))
        #expect(first["j"] == .json(JSONValue.object(["a": .array([.integer(1), .bool(true)])]).canonicalText))
        let second = try fixture.object("Thing", try #require(ids[2])).attributes
        #expect(second["s"] == .string("name\n"))
        #expect(second["i"] == .integer(1))
        #expect(second["d"] == .double(3))
        #expect(second["b"] == .boolean(false))
        #expect(second["t"] == date)
        #expect(second["u"] == first["u"])
        #expect(second["bin"] == .binary(Data()))
        #expect(second["j"] == .json(JSONValue.string("text").canonicalText))
        let third = try fixture.object("Thing", try #require(ids[3])).attributes
        #expect(third["s"] == .null && third["bin"] == .null)
        #expect(third["i"] == .integer(-12))
        #expect(third["d"] == .double(-1.5e-3))
        let box = try #require(outcome.result.ids?["Box"]?[1])
        #expect(Set(try fixture.toMany("Box", box, "things")) == Set(ids.values))
        #expect(try fixture.toOne("Thing", try #require(ids[3]), "box") == box)
    }

    /// Each bad line in the exporter's shape is refused with its line and field, as the general
    /// reading names them.
    @Test(arguments: [
        (#""attributes":{"nope":1}"#, "attributes.nope"),
        (#""attributes":{"i":"seven"}"#, "attributes.i"),
        (#""attributes":{"i":1.5}"#, "attributes.i"),
        (#""attributes":{"u":"not-a-uuid"}"#, "attributes.u"),
        (#""attributes":{"bin":"***"}"#, "attributes.bin"),
        (#""attributes":{"i":99999999999999999999}"#, "attributes.i"),
        (#""attributes":{},"extra":1"#, "extra"),
        (#""attributes":[]"#, "attributes"),
    ])
    func aBadObjectLineNamesItsLineAndField(attributes: String, field: String) throws {
        let fixture = try CloneFixture(modelJSON: Self.model, .sqlite)
        let thing = #"{"kind":"object","entity":"Thing","ref":1,"parent":{"entity":"Box","ref":1},\#(attributes),"relationships":{"box":1}}"#
        do {
            _ = try Self.importing([Self.header, Self.box, thing, #"{"kind":"end","objects":2,"references":0}"#], into: fixture)
            Issue.record("a bad line was taken: \(thing)")
        } catch GraphImportError.badLine(let line, let found, let message, _) {
            #expect(line == 3, "\(message)")
            #expect(found == field, "\(message)")
        }
        #expect(try fixture.ids("Thing").isEmpty)
    }

    @Test func aDuplicateMemberIsRefusedAsJSON() throws {
        let fixture = try CloneFixture(modelJSON: Self.model, .sqlite)
        let thing = #"{"kind":"object","entity":"Thing","ref":1,"ref":2,"attributes":{},"relationships":{}}"#
        do {
            _ = try Self.importing([Self.header, Self.box, thing, #"{"kind":"end","objects":2,"references":0}"#], into: fixture)
            Issue.record("a line naming ref twice was taken")
        } catch GraphImportError.badLine(let line, _, let message, let syntax) {
            #expect(line == 3 && syntax, "\(message)")
            #expect(message.contains("duplicate member name \"ref\""), "\(message)")
        }
    }
}
