import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// What the streamed import adds to a document's rules and what its writes cost, on real SQLite
/// files: shared objects found together, references before the lines naming them.
@Suite struct GraphImportStreamingTests {
    static let model = GraphTravelNaturalKeyTests.model

    /// A card linking `labels` labels, exported from one store; the same labels on another.
    static func document(labels: Int) throws -> (document: [UInt8], target: CloneFixture, targetLabels: [Int64]) {
        let source = try CloneFixture(modelJSON: model, .sqlite)
        let target = try CloneFixture(modelJSON: model, .sqlite)
        var inserts = (0..<labels).map { ChangeSet.Insert(entity: "Label", attributes: ["name": .string("label \($0)")]) }
        inserts.append(
            ChangeSet.Insert(entity: "Card", attributes: ["title": .string("fix")], relationships: ["labels": .toMany((0..<labels).map { .inserted($0) })]))
        let ids = try source.insert(inserts)
        let targetLabels = try target.insert((0..<labels).map { ChangeSet.Insert(entity: "Label", attributes: ["name": .string("label \($0)")]) })
        let plan = try ClonePlan(request: CloneRequest(entity: "Card", id: ids[labels]), schema: source.store.schema)
        var document: [UInt8] = []
        _ = try source.store.read { try GraphExporter(plan: plan).run(in: $0) { document += $0 } }
        return (document, target, targetLabels)
    }

    @Test func sharedObjectsAreFoundWithOneQueryPerEntity() throws {
        let (document, target, targetLabels) = try Self.document(labels: 30)
        let card = target.store.model.entity(named: "Card")!
        var importer = try GraphImporter(schema: target.store.schema, root: card, options: GraphImportOptions())
        try importer.feed(document)
        try importer.finish()
        let (outcome, statements) = try target.store.write { context in
            try context.sqliteConnection.recordingStatements { try importer.run(in: context, now: Date()) }
        }
        #expect(outcome.result.linked == ["Label": 30])
        #expect(Set(try target.toMany("Card", outcome.result.clone.id, "labels")) == Set(targetLabels))
        let lookups = statements.filter { $0.contains("JOIN \"Label\"") || ($0.contains("FROM \"Label\"") && $0.contains("\"name\"")) }
        #expect(lookups.count == 1, "\(lookups)")
    }

    @Test func aReferenceAfterTheLineNamingItIsRefused() throws {
        let (document, target, _) = try Self.document(labels: 2)
        var lines = String(decoding: document, as: UTF8.self).split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex { $0.contains(#""kind":"reference""#) })
        let moved = lines.remove(at: first)
        lines.insert(moved, at: lines.count - 1)
        let card = target.store.model.entity(named: "Card")!
        var importer = try GraphImporter(schema: target.store.schema, root: card, options: GraphImportOptions())
        do {
            try importer.feed(Array((lines.joined(separator: "\n") + "\n").utf8))
            try importer.finish()
            Issue.record("a reference line after the line naming it was taken")
        } catch GraphImportError.badLine(let line, let field, let message, _) {
            #expect(line == lines.count - 1, "\(message)")
            #expect(field == "ref")
            #expect(message.contains("before its reference line"), "\(message)")
        }
    }

    static let listsModel = """
        { "entities": [
          { "name": "Board", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "board", "deleteRule": "cascade" } ] },
          { "name": "Card", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "board", "destination": "Board", "inverse": "cards" },
                               { "name": "owner", "destination": "Person", "inverse": "cards" },
                               { "name": "labels", "destination": "Label", "toMany": true, "inverse": "cards" } ] },
          { "name": "Person", "attributes": [ { "name": "email", "type": "string", "unique": true } ],
            "relationships": [ { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "owner" } ] },
          { "name": "Label", "attributes": [ { "name": "name", "type": "string", "unique": true } ],
            "relationships": [ { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "labels" } ] }
        ] }
        """

    /// New cards linked to an existing person and label whose ordered lists already hold a card
    /// join the end of those lists, in the document's order (through a reference column and
    /// through a join table's other-side position); the board's own list keeps its order; each
    /// existing object takes one version step.
    @Test(arguments: StoreBackendKind.available)
    func newObjectsJoinTheEndOfExistingOrderedLists(_ backend: StoreBackendKind) throws {
        let source = try CloneFixture(modelJSON: Self.listsModel, backend)
        let target = try CloneFixture(modelJSON: Self.listsModel, backend)
        let made = try source.insert([
            ChangeSet.Insert(entity: "Person", attributes: ["email": .string("ann@example.com")]),
            ChangeSet.Insert(entity: "Label", attributes: ["name": .string("urgent")]),
            ChangeSet.Insert(entity: "Board", attributes: ["title": .string("sprint")]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("second")],
                relationships: ["board": .toOne(.inserted(2)), "owner": .toOne(.inserted(0)), "labels": .toMany([.inserted(1)])]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("first")],
                relationships: ["owner": .toOne(.inserted(0)), "labels": .toMany([.inserted(1)])]),
        ])
        // The board lists the card made last first: its list order is not the cards' id order.
        _ = try source.store.write { context in
            let list = ChangeSet.RelationshipEdit.toMany([.existing(made[4]), .existing(made[3])])
            return try context.save(ChangeSet(updates: [ChangeSet.Update(entity: "Board", id: made[2], relationships: ["cards": list])]))
        }
        let existing = try target.insert([
            ChangeSet.Insert(entity: "Person", attributes: ["email": .string("ann@example.com")]),
            ChangeSet.Insert(entity: "Label", attributes: ["name": .string("urgent")]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("there before")],
                relationships: ["owner": .toOne(.inserted(0)), "labels": .toMany([.inserted(1)])]),
        ])
        let personVersion = try target.object("Person", existing[0]).version
        let labelVersion = try target.object("Label", existing[1]).version

        let plan = try ClonePlan(request: CloneRequest(entity: "Board", id: made[2]), schema: source.store.schema)
        var document: [UInt8] = []
        _ = try source.store.read { try GraphExporter(plan: plan).run(in: $0) { document += $0 } }
        let board = target.store.model.entity(named: "Board")!
        var importer = try GraphImporter(schema: target.store.schema, root: board, options: GraphImportOptions(returnIDs: true))
        try importer.feed(document)
        try importer.finish()
        let outcome = try target.store.write { try importer.run(in: $0, now: Date()) }
        #expect(outcome.result.created == ["Board": 1, "Card": 2])
        #expect(outcome.result.linked == ["Person": 1, "Label": 1])

        let newCards = try target.toMany("Board", outcome.result.clone.id, "cards")
        let titles: [AttributeValue?] = try newCards.map { try target.object("Card", $0).attributes["title"] }
        #expect(titles == [AttributeValue.string("first"), AttributeValue.string("second")])
        #expect(try target.toMany("Person", existing[0], "cards") == [existing[2]] + newCards.sorted())
        #expect(try target.toMany("Label", existing[1], "cards") == [existing[2]] + newCards.sorted())
        #expect(try target.object("Person", existing[0]).version == personVersion + 1)
        #expect(try target.object("Label", existing[1]).version == labelVersion + 1)
    }
}
