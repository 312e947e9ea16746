import ClonerClone
import ClonerModel
import ClonerStore
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
}
