import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@testable import ClonerTravel

/// A document's names are the target's, or older ones a Renaming ID (an attribute's
/// `originalName`) names: one rule for entities, attributes and relationships, the migrator's.
/// And a document written under the old names imports under the new ones, whichever way its
/// object lines are read. Real SQLite files and PostgreSQL databases.
@Suite struct GraphDocumentNamesTests {
    /// Box was Crate (its things were items, their box crate); Ledger and Diary both claim Journal;
    /// Box's `label` is still an attribute, so the relationship claiming it renames nothing.
    static let model = """
        { "entities": [
          { "name": "Box", "renamingID": "Crate",
            "attributes": [ { "name": "name", "type": "string", "originalName": "title" }, { "name": "label", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "things", "destination": "Thing", "toMany": true, "inverse": "box", "deleteRule": "cascade", "renamingID": "items" },
              { "name": "tagged", "destination": "Thing", "toMany": true, "renamingID": "label" },
              { "name": "first", "destination": "Thing", "renamingID": "picks" },
              { "name": "second", "destination": "Thing", "renamingID": "picks" } ] },
          { "name": "Thing", "attributes": [ { "name": "s", "type": "string", "optional": true } ],
            "relationships": [ { "name": "box", "destination": "Box", "inverse": "things", "renamingID": "crate" } ] },
          { "name": "Ledger", "renamingID": "Journal", "attributes": [] },
          { "name": "Diary", "renamingID": "Journal", "attributes": [] },
          { "name": "Shelf", "renamingID": "Box", "attributes": [] }
        ] }
        """

    static func names(_ match: GraphDocumentNames.Match<some Any>, _ name: (Any) -> String?) -> String {
        switch match {
        case .found(let target): return name(target) ?? "?"
        case .missing: return "missing"
        case .ambiguous(let claimants): return "ambiguous " + claimants.joined(separator: ",")
        }
    }

    static func entity(_ match: GraphDocumentNames.Match<EntityDescription>) -> String { names(match) { ($0 as? EntityDescription)?.name } }

    @Test func currentNamesWinThenOneClaimant() throws {
        let model = try ModelLoader.load(data: Data(Self.model.utf8))
        let names = GraphDocumentNames(model: model)
        #expect(Self.entity(names.entity("Box")) == "Box", "a current name is never a rename (Shelf's Renaming ID names Box)")
        #expect(Self.entity(names.entity("Crate")) == "Box")
        #expect(Self.entity(names.entity("Journal")) == "ambiguous Ledger,Diary")
        #expect(Self.entity(names.entity("Nothing")) == "missing")

        let box = try #require(model.entity(named: "Box"))
        let relationship = { (name: String) in Self.names(names.relationship(name, of: box)) { ($0 as? RelationshipDescription)?.name } }
        #expect(relationship("things") == "things")
        #expect(relationship("items") == "things")
        #expect(relationship("label") == "missing", "an attribute has that name: tagged's Renaming ID renames nothing")
        #expect(relationship("picks") == "ambiguous first,second")
        let attribute = { (name: String) in Self.names(names.attribute(name, of: box)) { ($0 as? AttributeDescription)?.name } }
        #expect(attribute("title") == "name")
        #expect(attribute("name") == "name")
        #expect(attribute("things") == "missing", "a relationship is no attribute")
        #expect(GraphDocumentNames.list(["A", "B", "C"]) == "A, B and C")
    }

    static let oldHeader = """
        {"kind":"header","format":"cloner-graph","version":1,"fingerprint":"x","root":{"entity":"Crate","ref":1},\
        "entities":{"Crate":{"attributes":{"title":"string"},"relationships":{"items":{"destination":"Thing","toMany":true,\
        "ordered":false}},"key":null},"Thing":{"attributes":{"s":"string"},"relationships":{"crate":{"destination":"Crate",\
        "toMany":false,"ordered":false}},"key":null}}}
        """

    @Test(arguments: StoreBackendKind.available) func aDocumentUnderOldNamesImportsUnderNewOnes(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: Self.model, backend)
        let lines = [
            Self.oldHeader,
            #"{"kind":"object","entity":"Crate","ref":1,"parent":null,"attributes":{"title":"old"},"relationships":{"items":[1,2]}}"#,
            // The exporter's shape (read straight from the bytes), then another order (read the general way).
            #"{"kind":"object","entity":"Thing","ref":1,"parent":{"entity":"Crate","ref":1},"attributes":{"s":"a"},"relationships":{"crate":1}}"#,
            #"{ "relationships": {"crate": 1}, "attributes": {"s": "b"}, "parent": {"ref": 1, "entity": "Crate"}, "ref": 2, "entity": "Thing", "kind": "object" }"#,
            #"{"kind":"end","objects":3,"references":0}"#,
        ]
        let root = try #require(fixture.store.model.entity(named: "Box"))
        var importer = try GraphImporter(schema: fixture.store.schema, root: root, options: GraphImportOptions(returnIDs: true))
        try importer.feed(Array(lines.joined(separator: "\n").utf8))
        try importer.finish()
        let outcome = try fixture.store.write { try importer.run(in: $0, now: Date()) }
        #expect(outcome.result.created == ["Box": 1, "Thing": 2])
        let box = try #require(outcome.result.ids?["Box"]?[1])
        let things = try #require(outcome.result.ids?["Thing"])
        #expect(try fixture.object("Box", box).attributes["name"] == .string("old"))
        #expect(Set(try fixture.toMany("Box", box, "things")) == Set(things.values))
        for id in things.values { #expect(try fixture.toOne("Thing", id, "box") == box) }
    }

    @Test func anAmbiguousOldNameIsAModelDifferenceNamingBoth() throws {
        let fixture = try CloneFixture(modelJSON: Self.model, .sqlite)
        let root = try #require(fixture.store.model.entity(named: "Box"))
        let header = Self.oldHeader.replacingOccurrences(of: #""items":{"#, with: #""picks":{"destination":"Thing","toMany":false},"items":{"#)
        #expect(header != Self.oldHeader)
        var importer = try GraphImporter(schema: fixture.store.schema, root: root, options: GraphImportOptions())
        do {
            try importer.feed(Array((header + "\n").utf8))
            Issue.record("an ambiguous name was taken")
        } catch GraphImportError.modelDifferences(let differences) {
            #expect(differences.map(\.property) == ["Crate.picks"])
            #expect(differences.first?.message.contains("first and second") == true, "\(differences)")
        }
    }

    /// A document that has both the old and the new name of one entity (an export from a model
    /// that had both) is not the renamed model's: its two entities would become one.
    @Test func twoDocumentNamesForOneEntityAreAModelDifference() throws {
        let fixture = try CloneFixture(modelJSON: Self.model, .sqlite)
        let root = try #require(fixture.store.model.entity(named: "Box"))
        let header = Self.oldHeader.replacingOccurrences(
            of: #""entities":{"#, with: #""entities":{"Box":{"attributes":{"name":"string"},"relationships":{},"key":null},"#)
        #expect(header != Self.oldHeader)
        var importer = try GraphImporter(schema: fixture.store.schema, root: root, options: GraphImportOptions())
        do {
            try importer.feed(Array((header + "\n").utf8))
            Issue.record("two names for Box were taken")
        } catch GraphImportError.modelDifferences(let differences) {
            #expect(differences.map(\.property) == ["Crate"])
            #expect(differences.first?.message == "the document's Box and Crate are both the target's Box", "\(differences)")
        }
    }
}
