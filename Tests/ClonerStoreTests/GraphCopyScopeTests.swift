import ClonerModel
import Foundation
import Testing

@testable import ClonerStore

/// The order a clone maps and inserts its entities in: each after the entities its reference
/// columns point at, so that SQLite's deferred foreign keys count no violation while the copy is
/// written (one counted makes every later row of a referenced table look up its referencing rows).
@Suite struct GraphCopyScopeTests {
    private static func order(_ modelJSON: String, root: String) throws -> [String] {
        try order(ModelLoader.load(data: Data(modelJSON.utf8)), root: root)
    }

    private static func order(_ model: DataModel, root: String) throws -> [String] {
        let owned = Set(model.entities.flatMap(\.relationships).filter { $0.deleteRule == .cascade }.map(\.qualifiedName))
        let plan = GraphCopyPlan(rootEntity: root, rootID: 1, ownedRelationships: owned)
        return GraphCopyScope(plan: plan, schema: StoreSchema(model: model)).entities.map(\.name)
    }

    /// The sample model lists item data before memos; an item data points at its memo, so the
    /// memos come first. The note's description, which the note points at, comes before the note.
    @Test func entitiesComeAfterWhatTheirReferencesPointAt() throws {
        let model = try ModelLoader.load(contentsOf: SchemaDDLTextTests.sampleModelURL)
        let order = try Self.order(model, root: "Note")
        #expect(order == ["NoteDescription", "Note", "Item", "Memo", "ItemData", "Attachment"])
    }

    /// Entities that point at each other are placed from the first of their cycle in model
    /// order, not from an entity before them that waits for the cycle; an entity's reference to
    /// itself holds nothing back.
    @Test func aCycleIsPlacedFromItsFirstEntity() throws {
        let model = """
            { "entities": [
              { "name": "D", "relationships": [
                  { "name": "c", "destination": "C", "inverse": "ds" } ] },
              { "name": "B", "relationships": [
                  { "name": "partner", "destination": "A" } ] },
              { "name": "A", "relationships": [
                  { "name": "partner", "destination": "B", "deleteRule": "cascade" },
                  { "name": "next", "destination": "A" },
                  { "name": "cs", "destination": "C", "toMany": true, "inverse": "a", "deleteRule": "cascade" } ] },
              { "name": "C", "relationships": [
                  { "name": "a", "destination": "A", "inverse": "cs" },
                  { "name": "ds", "destination": "D", "toMany": true, "inverse": "c", "deleteRule": "cascade" } ] }
            ] }
            """
        let order = try Self.order(model, root: "A")
        #expect(order == ["B", "A", "C", "D"])
    }
}
