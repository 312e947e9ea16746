import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A create or PATCH body with several kinds of problems answers one 422 listing them all — wrong
/// types, unknown fields and links to missing objects — each at its full path into the body, and
/// writes nothing.
@Suite("Service: one 422 names every problem of a body")
struct BodyProblemsServiceTests {
    typealias F = EndToEndFixture

    /// A wrong type, a link to a missing tag and an unknown field, in one answer.
    @Test(arguments: StoreBackendKind.available)
    func valueProblemsAndMissingLinksTogether(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let tag = try await client.createdID("tags", #"{"name": "home"}"#)
            let answer = try await client.post(
                "/memos", #"{"createDate": 42, "tags": [\#(tag), 9999], "colour": "red"}"#)
            #expect(answer.status == 422, "\(answer.text)")
            let problem = try answer.json()
            #expect(F.errorFields(problem) == ["colour", "createDate", "tags[1]"], "\(answer.text)")
            let messages = (problem["errors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(messages.contains("Memo.tags: no Tag with _id 9999"), "\(answer.text)")
            #expect(try await service.count("Memo") == 0)
        }
    }

    /// Problems inside nested objects carry their whole path, links included.
    @Test(arguments: StoreBackendKind.available)
    func nestedProblemsCarryTheirFullPath(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let body = F.note(
                #""memos": [{"createDate": "\#(F.date)", "tags": [777]}, {"createDate": "yesterday"}], "items": [{"name": "a"}, {"name": 5}]"#)
            let answer = try await service.client.post("/notes", body)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(
                F.errorFields(try answer.json()) == ["items[1].name", "memos[0].tags[0]", "memos[1].createDate"], "\(answer.text)")
            #expect(try await service.counts(["Note", "Memo", "Item"]) == [0, 0, 0])
        }
    }

    /// A body whose values are all right but whose links are not: every missing one is named, a
    /// to-one by its name and a to-many's by its place, not only the first the save met.
    @Test(arguments: StoreBackendKind.available)
    func everyMissingLinkIsNamed(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let tag = try await client.createdID("tags", #"{"name": "home"}"#)
            let memo = try await client.create("memos", #"{"createDate": "\#(F.date)", "tags": [\#(tag)]}"#)
            let id = try #require(F.int(memo["_id"]))
            let answer = try await client.patch("/memos/\(id)", #"{"note": 4242, "tags": [4243, \#(tag), 4244]}"#)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(F.errorFields(try answer.json()) == ["note", "tags[0]", "tags[2]"], "\(answer.text)")
            let created = try await client.post("/memos", #"{"createDate": "\#(F.date)", "note": 4242, "itemData": 4245}"#)
            #expect(created.status == 422, "\(created.text)")
            #expect(F.errorFields(try created.json()) == ["itemData", "note"], "\(created.text)")
            let unchanged = try await client.get("/memos/\(id)").json()
            #expect(F.int(unchanged["_version"]) == 1)
            #expect(F.ints(unchanged["tags"]) == [tag])
        }
    }
}
