import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTravel
import Foundation
import Testing

/// A shared entity with no `unique` attribute is found by the `naturalKey` a relationship to it
/// names, when a graph travels from one store to another (both real SQLite files).
@Suite struct GraphTravelNaturalKeyTests {
    static let model = """
        { "entities": [
          { "name": "Card", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "labels", "destination": "Label", "toMany": true, "inverse": "cards",
                                 "userInfo": { "naturalKey": "name" } } ] },
          { "name": "Label", "attributes": [ { "name": "name", "type": "string" }, { "name": "color", "type": "string", "optional": true } ],
            "relationships": [ { "name": "cards", "destination": "Card", "toMany": true, "inverse": "labels" } ] }
        ] }
        """

    @Test func sharedObjectsAreFoundByTheRelationshipsNaturalKey() throws {
        let source = try CloneFixture(modelJSON: Self.model, .sqlite)
        let target = try CloneFixture(modelJSON: Self.model, .sqlite)
        let ids = try source.insert([
            ChangeSet.Insert(entity: "Label", attributes: ["name": .string("bug"), "color": .string("red")]),
            ChangeSet.Insert(entity: "Card", attributes: ["title": .string("fix")], relationships: ["labels": .toMany([.inserted(0)])]),
        ])
        let targetLabel = try target.insert([ChangeSet.Insert(entity: "Label", attributes: ["name": .string("bug")])])[0]
        _ = try target.insert([ChangeSet.Insert(entity: "Label", attributes: ["name": .string("other")])])

        let plan = try ClonePlan(request: CloneRequest(entity: "Card", id: ids[1]), schema: source.store.schema)
        var document: [UInt8] = []
        _ = try source.store.read { try GraphExporter(plan: plan).run(in: $0) { document += $0 } }
        let text = String(decoding: document, as: UTF8.self)
        #expect(text.contains(#""kind":"reference","entity":"Label","ref":\#(ids[0]),"key":{"name":"bug"}"#), "\(text)")

        let card = target.store.model.entity(named: "Card")!
        var importer = try GraphImporter(schema: target.store.schema, root: card, options: GraphImportOptions(returnIDs: true))
        try importer.feed(document)
        try importer.finish()
        let outcome = try target.store.write { try importer.run(in: $0, now: Date()) }
        #expect(outcome.result.linked == ["Label": 1])
        #expect(try target.toMany("Card", outcome.result.clone.id, "labels") == [targetLabel])
    }
}
