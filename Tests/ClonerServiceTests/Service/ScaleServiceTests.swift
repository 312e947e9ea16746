import ClonerServiceTestSupport
import Foundation
import Testing

/// A large clone through the real service: every row arrives and every followParent value is
/// right at a size where a per-object slip would show. Its speed is measured by clone-bench.
@Suite("Service: scale")
struct ScaleServiceTests {
    typealias F = EndToEndFixture

    @Test("a note with 40,000 items and 40,000 item data clones whole, every item following the new note's id")
    func largeClone() async throws {
        try await TestService.withService { service in
            let items = 40000
            let noteID = try await service.seedLargeNote(items: items, name: "large")
            let response = try await service.client.post("/notes/\(noteID)/clone", nil)
            #expect(response.status == 201)
            #expect(F.counts(try response.json()["created"]) == ["Note": 1, "Item": items, "ItemData": items])
            let cloneID = try response.cloneID()
            let cloneUUID = try await service.sql("SELECT id FROM Note WHERE _id = \(cloneID);")
            #expect(try await service.count("Item", where: "note = \(cloneID) AND noteID = '\(cloneUUID)'") == items)
        }
    }
}
