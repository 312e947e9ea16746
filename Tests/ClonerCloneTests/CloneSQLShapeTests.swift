import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Each backend builds a clone's SQL once per connection and plan shape, and later clones of the
/// same shape reuse it with their own values as parameters. A shape that left out something the
/// SQL depends on would hand one request another's statements: here a run of requests of
/// different shapes on one warm store must answer what each answers on a store of its own.
@Suite struct CloneSQLShapeTests {
    /// What a clone made, without ids or rebuilt values: the counts and each copy's root.
    private static func outline(_ fixture: CloneFixture, _ result: CloneResult) throws -> [String] {
        var lines = ["created \(result.created.sorted { $0.key < $1.key })", "linked \(result.linked.sorted { $0.key < $1.key })"]
        for clone in result.clones ?? [result.clone] {
            let note = try fixture.object("Note", clone.id)
            lines.append(
                "name=\(note.attributes["name"]!) index=\(note.attributes["index"]!) "
                    + "items=\(try fixture.toMany("Note", clone.id, "items").count) "
                    + "memos=\(try fixture.toMany("Note", clone.id, "memos").count) "
                    + "template=\(try fixture.toOne("Note", clone.id, "template") != nil)")
        }
        return lines
    }

    private static func requests(_ note: Int64, template: Int64) -> [CloneRequest] {
        [
            CloneRequest(entity: "Note", id: note),
            CloneRequest(entity: "Note", id: note, exclude: ["items"]),
            CloneRequest(entity: "Note", id: note, set: ["name": .string("X")]),
            CloneRequest(entity: "Note", id: note, copies: 2, copySets: [["name": .string("A")], [:]]),
            CloneRequest(entity: "Note", id: note, copies: 2, copySets: [["name": .string("A")], ["name": .string("B")]]),
            CloneRequest(entity: "Note", id: note, set: ["template": .integer(template)]),
            CloneRequest(entity: "Note", id: note, copies: 3),
            CloneRequest(entity: "Note", id: note, exclude: ["memos"], set: ["index": .integer(7)]),
            CloneRequest(entity: "Note", id: note),
        ]
    }

    @Test(arguments: StoreBackendKind.available)
    func clonesOfManyShapesOnOneStoreAnswerAsEachAlone(_ backend: StoreBackendKind) throws {
        /// A fresh graph on `fixture` and the requests on it: every request clones a graph no
        /// earlier clone has linked to, so only the cached SQL is shared.
        func seeded(_ fixture: CloneFixture) throws -> [CloneRequest] {
            let tags = try fixture.makeTags(["home", "work"].map { "\($0) \(UUID())" })
            let sample = try fixture.makeSampleNote(items: 3, tags: tags)
            let template = try fixture.makeSampleNote(name: "Template", items: 1)
            return Self.requests(sample.note, template: template.note)
        }
        let warm = try CloneFixture(backend)
        for index in Self.requests(0, template: 0).indices {
            let request = try seeded(warm)[index]
            let onWarmStore = try Self.outline(warm, warm.engine.clone(request))
            let cold = try CloneFixture(backend)
            let alone = try Self.outline(cold, cold.engine.clone(seeded(cold)[index]))
            #expect(onWarmStore == alone, "request \(index) after \(index) others")
        }
    }
}
