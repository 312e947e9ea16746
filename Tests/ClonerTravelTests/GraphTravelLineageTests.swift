import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// A graph export says what a clone's root was cloned from; an import checks the member and
/// creates objects that are clones of nothing (docs/architecture.md#lineage). Real stores.
@Suite struct GraphTravelLineageTests {
    static func export(_ fixture: CloneFixture, note: Int64) throws -> [String] {
        let plan = try ClonePlan(request: CloneRequest(entity: "Note", id: note), schema: fixture.store.schema)
        var document: [UInt8] = []
        _ = try fixture.store.read { try GraphExporter(plan: plan).run(in: $0) { document += $0 } }
        return String(decoding: document, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func importing(_ lines: [String], into fixture: CloneFixture) throws -> GraphImportResult {
        let note = fixture.store.model.entity(named: "Note")!
        var importer = try GraphImporter(schema: fixture.store.schema, root: note, options: GraphImportOptions(createMissing: true))
        try importer.feed(Array((lines.joined(separator: "\n") + "\n").utf8))
        try importer.finish()
        return try fixture.store.write { try importer.run(in: $0, now: Date()) }
    }

    @Test(arguments: StoreBackendKind.available) func aClonesRootSaysWhatItWasClonedFrom(_ backend: StoreBackendKind) throws {
        let source = try CloneFixture(backend)
        let tags = try source.makeTags(["shared"])
        let sample = try source.makeSampleNote(items: 2, tags: tags)
        let clone = try source.engine.clone(CloneRequest(entity: "Note", id: sample.note)).clone.id

        let lines = try Self.export(source, note: clone)
        let marked = lines.filter { $0.contains("\"clonedFrom\"") }
        #expect(marked.count == 1, "\(lines)")
        #expect(marked.first?.hasPrefix(#"{"kind":"object","entity":"Note","ref":\#(clone),"#) == true)
        #expect(marked.first?.hasSuffix(#","clonedFrom":{"entity":"Note","id":\#(sample.note)}}"#) == true, "\(marked)")
        #expect(try Self.export(source, note: sample.note).allSatisfy { !$0.contains("clonedFrom") })

        let target = try CloneFixture(backend)
        let imported = try Self.importing(lines, into: target)
        let root = try target.store.read { try $0.fetchRecords(entity: "Note", ids: [imported.result.clone.id]) }
        #expect(root.count == 1 && root.clonedFrom.isEmpty)
        #expect(try target.store.read { try $0.clones(entity: "Note", sourceID: sample.note, after: nil, limit: 5) }.isEmpty)
    }

    @Test func aBadClonedFromIsRefusedNamingIt() throws {
        let source = try CloneFixture()
        let sample = try source.makeSampleNote(items: 1)
        let clone = try source.engine.clone(CloneRequest(entity: "Note", id: sample.note)).clone.id
        let lines = try Self.export(source, note: clone)
        let index = try #require(lines.firstIndex { $0.contains("\"clonedFrom\"") })
        for bad in [#""clonedFrom":5"#, #""clonedFrom":{"entity":"Note","id":"1"}"#, #""clonedFrom":{"entity":"Note","id":1,"at":2}"#] {
            var changed = lines
            changed[index] = changed[index].replacingOccurrences(of: #""clonedFrom":{"entity":"Note","id":\#(sample.note)}"#, with: bad)
            let target = try CloneFixture()
            let error = #expect(throws: GraphImportError.self) { try Self.importing(changed, into: target) }
            #expect("\(String(describing: error))".contains("clonedFrom"), "\(bad): \(String(describing: error))")
            #expect(try target.ids("Note").isEmpty)
        }
    }
}
