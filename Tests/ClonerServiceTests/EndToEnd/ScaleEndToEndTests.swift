import Foundation
import Testing

/// Large clones through the real service, with a generous time bound: the bound catches work
/// that grows with the square of the clone, not a slow machine.
@Suite("End to end: scale")
struct ScaleEndToEndTests {
    typealias F = EndToEndFixture

    @Test("a note with 40,000 items and 40,000 item data clones whole within a minute",
          .disabled("ClonerClone: the followParent UPDATE (Item.noteID) searches _clone_map by (ent) only, quadratic in the clone size — 8,000 items take 2.7 s, 50,000 take 155 s; see the e2e report"))
    func largeClone() async throws {
        try await ServiceProcess.withService { service in
            let items = 40000
            let noteID = try await LifecycleEndToEndTests.seedLargeNote(service, items: items, name: "large")
            let started = ContinuousClock.now
            let response = try await service.client.post("/notes/\(noteID)/clone", nil)
            let elapsed = ContinuousClock.now - started
            #expect(response.status == 201)
            #expect(F.counts(try response.json()["created"]) == ["Note": 1, "Item": items, "ItemData": items])
            #expect(elapsed < .seconds(60), "clone of \(2 * items + 1) objects took \(elapsed)")
            let cloneID = try #require(F.int((try response.json()["clone"] as? [String: Any])?["id"]))
            let cloneUUID = try await service.sql("SELECT id FROM Note WHERE _id = \(cloneID);")
            #expect(try await service.count("Item", where: "note = \(cloneID) AND noteID = '\(cloneUUID)'") == items)
        }
    }
}
