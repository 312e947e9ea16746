import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A Core Data model with Transformable attributes (Tests/Fixtures/CoreData/Transformable.xcdatamodel):
/// what the app's value transformer archived reaches Cloner as bytes, which it keeps and copies as
/// they are, on every route a binary value has.
@Suite("Service: a Core Data model's Transformable attributes")
struct CoreDataTransformableServiceTests {
    typealias F = EndToEndFixture

    static let model = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Transformable.xcdatamodel")

    /// Bytes no text encoding would keep: every byte value, twice.
    static let archive = Data((0..<512).map { UInt8(truncatingIfNeeded: $0) })

    @Test("created as base64, read back byte for byte and through the raw route, cloned and imported as they are", arguments: StoreBackendKind.available)
    func archivedBytesTravelUnchanged(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, overrides: .init(modelPath: Self.model.path)) { service in
            let client = service.client
            let encoded = Self.archive.base64EncodedString()
            let profile = try await client.create(
                "profiles", #"{"title": "home", "preferences": [{"name": "layout", "value": "\#(encoded)", "colours": "AQID"}]}"#)
            let profileID = try #require(F.int(profile["_id"]))
            let preferenceID = try #require(F.ints(profile["preferences"])?.first)
            let preference = try await client.get("/preferences/\(preferenceID)").json()
            #expect(preference["value"] as? String == encoded)
            #expect(preference["colours"] as? String == "AQID")
            #expect(preference["cache"] == nil, "a transient Transformable is not stored")

            let raw = try await client.get("/preferences/\(preferenceID)/value")
            #expect(raw.status == 200 && Data(raw.body) == Self.archive, "the raw route answers the archive's bytes")

            let missing = try await client.post("/preferences", #"{"name": "no colours"}"#)
            #expect(missing.status == 422 && missing.text.contains("colours"), "a required Transformable is required: \(missing.text)")

            let cloned = try await client.post("/profiles/\(profileID)/clone", "{}")
            #expect(cloned.status == 201, "\(cloned.text)")
            let cloneID = try cloned.cloneID()
            let copy = try await client.get("/profiles/\(cloneID)").json()
            let copiedID = try #require(F.ints(copy["preferences"])?.first)
            #expect(copiedID != preferenceID)
            let copied = try await client.get("/preferences/\(copiedID)/value")
            #expect(Data(copied.body) == Self.archive, "the clone's value is the same bytes")

            let document = try await client.get("/profiles/\(profileID)/export").text
            let imported = try await client.importGraph("profiles", document)
            #expect(imported.status == 201, "\(imported.text)")
            let importedID = try imported.cloneID()
            let importedProfile = try await client.get("/profiles/\(importedID)").json()
            let importedPreference = try #require(F.ints(importedProfile["preferences"])?.first)
            #expect(Data(try await client.get("/preferences/\(importedPreference)/value").body) == Self.archive)
            #expect(try await service.count("Preference") == 3)
        }
    }
}
