import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// What a client reads in an error answer from the real binary: a stable `code`, a `title` that
/// names the kind, a top-level `field` whenever fields are at fault, and values quoted as sent.
@Suite("Service: problem answers say what is wrong")
struct ProblemAnswersServiceTests {
    typealias F = EndToEndFixture

    /// A JSON array where an object belongs names the body, for records and for clone options.
    @Test func aBodyThatIsNotAnObjectNamesTheBody() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.note())
            let id = try #require(F.int(note["_id"]))
            for (method, path) in [("POST", "/notes"), ("PATCH", "/notes/\(id)"), ("POST", "/notes/\(id)/clone")] {
                let answer = try await client.request(method, path, headers: [("Content-Type", "application/json")], body: "[1, 2]")
                #expect(answer.status == 422, "\(method) \(path): \(answer.text)")
                let problem = try answer.json()
                #expect(problem["field"] as? String == "$", "\(method) \(path): \(answer.text)")
                let detail = try #require(problem["detail"] as? String)
                #expect(detail.hasPrefix("the request body must be a JSON object"), "\(method) \(path): \(detail)")
                #expect(detail.hasSuffix("got an array"), "\(method) \(path): \(detail)")
            }
        }
    }

    /// Several offending fields: `errors` lists them all and `field` names the first.
    @Test func severalFieldErrorsStillGiveATopLevelField() async throws {
        try await TestService.withService { service in
            let answer = try await service.client.post("/notes", #"{"colour": "red", "index": "x"}"#)
            #expect(answer.status == 422)
            let problem = try answer.json()
            let fields = F.errorFields(problem)
            #expect(fields.count > 1, "\(answer.text)")
            #expect(problem["field"] as? String == fields.first, "\(answer.text)")
        }
    }

    /// An integer beyond 64 bits is quoted as written, not as the double it would round to.
    @Test func valuesAreQuotedAsTheClientSentThem() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.note())
            let id = try #require(F.int(note["_id"]))
            for literal in ["99999999999999999999", "-18446744073709551617"] {
                let answer = try await client.patch("/notes/\(id)", "{\"index\": \(literal)}")
                #expect(answer.status == 422, "\(answer.text)")
                let problem = try answer.json()
                #expect(problem["field"] as? String == "index")
                let detail = try #require(problem["detail"] as? String)
                #expect(detail.contains("got \(literal)"), "\(detail)")
                #expect(!detail.contains("e+"), "\(detail)")
            }
        }
    }

    /// A PATCH whose body can never apply says so (400/422) before any If-Match verdict: a weak
    /// tag's 412 would send the client to fix the wrong thing.
    @Test func aBadPatchBodyIsNamedBeforeThePrecondition() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.note())
            let id = try #require(F.int(note["_id"]))
            let notJSON = try await client.patch("/notes/\(id)", "c", headers: [("If-Match", "W/\"1\"")])
            #expect(notJSON.status == 400, "\(notJSON.text)")
            #expect(try notJSON.json()["code"] as? String == "invalid_json")
            let unknown = try await client.patch("/notes/\(id)", #"{"colour": "red"}"#, headers: [("If-Match", "W/\"1\"")])
            #expect(unknown.status == 422, "\(unknown.text)")
            let weak = try await client.patch("/notes/\(id)", #"{"name": "x"}"#, headers: [("If-Match", "W/\"1\"")])
            #expect(weak.status == 412, "a valid body with a weak tag: \(weak.text)")
        }
    }

    /// An expectation other than 100-continue: 417 with its own code and title (RFC 9110 §10.1.1).
    @Test func anUnknownExpectationIsNamed() async throws {
        try await TestService.withService { service in
            let answer = try await service.client.get("/notes", headers: [("Expect", "nonsense")])
            #expect(answer.status == 417, "\(answer.text)")
            let problem = try answer.json()
            #expect(problem["code"] as? String == "expectation_failed", "\(answer.text)")
            #expect(problem["title"] as? String == "Expectation Failed", "\(answer.text)")
            #expect(problem["type"] as? String == "urn:cloner:problem:expectation_failed")
        }
    }

    /// The README's sample error is what the service answers to the README's request (all but
    /// the request id, which differs on every request).
    @Test func theReadmeSampleErrorIsTheAnswer() async throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let request = #"curl -s -X PATCH localhost:8080/notes/1 -H 'Content-Type: application/json' -d '{"colour": "red"}'"#
        let after = try #require(readme.range(of: request), "the README no longer shows the sample error's request")
        let block = try #require(readme[after.upperBound...].range(of: "```json\n"))
        let end = try #require(readme[block.upperBound...].range(of: "\n```"))
        let sample = try #require(try JSONSerialization.jsonObject(with: Data(readme[block.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        try await TestService.withService { service in
            let client = service.client
            _ = try await client.create("notes", F.note())
            var answer = try await client.patch("/notes/1", #"{"colour": "red"}"#).json()
            #expect(answer["requestId"] is String)
            answer["requestId"] = sample["requestId"]
            #expect(NSDictionary(dictionary: answer).isEqual(to: sample), "README: \(sample)\nservice: \(answer)")
        }
    }
}
