@testable import ClonerService
import Foundation
import Testing

@Suite struct ProblemTests {
    @Test func encodesRFC9457MembersInOrder() throws {
        let problem = Problem.validationFailed([
            FieldError(field: "index", message: "expected an integer, got 1.5"),
            FieldError(field: "items[0].name", message: "expected a string, got 3"),
        ]).with(requestId: "req-1")
        let bytes = problem.jsonBytes()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"urn:cloner:problem:validation_failed","title":"Unprocessable Content","status":422,"#))
        let object = try foundationJSON(bytes)
        #expect(object["code"] as? String == "validation_failed")
        #expect(object["requestId"] as? String == "req-1")
        #expect(object["field"] as? String == "index", "two offending fields: the first is named")
        let errors = try #require(object["errors"] as? [[String: String]])
        #expect(errors.map { $0["field"] } == ["index", "items[0].name"])
        #expect((object["detail"] as? String)?.contains("2 fields are invalid") == true)
    }

    @Test func singleFieldErrorNamesTheField() throws {
        let problem = Problem.validationFailed([FieldError(field: "name", message: "must not be null")])
        #expect(problem.field == "name")
        #expect(problem.detail == "name: must not be null")
        let object = try foundationJSON(problem.jsonBytes())
        #expect(object["field"] as? String == "name")
    }

    @Test func codesMapToTheirStatuses() {
        let expected: [(Problem.Code, Int)] = [
            (.notFound, 404), (.invalidJSON, 400), (.validationFailed, 422), (.conflict, 409),
            (.preconditionFailed, 412), (.payloadTooLarge, 413), (.unauthorized, 401), (.forbidden, 403),
            (.methodNotAllowed, 405), (.notAcceptable, 406), (.unsupportedMediaType, 415),
            (.requestTimeout, 408), (.internalError, 500), (.serviceUnavailable, 503),
        ]
        for (code, status) in expected {
            let problem = Problem(code: code, detail: "x")
            #expect(problem.status == status, "\(code)")
            #expect(problem.title == Problem.title(forStatus: status))
        }
    }

    /// Every status the HTTP layer can answer on its own has a code of words and its reason
    /// phrase as title — never `http_417` and "Client Error".
    @Test func everyServerAnsweredStatusHasANamedCodeAndTitle() {
        let statuses = [400, 404, 405, 408, 411, 413, 414, 417, 429, 431, 501, 503, 505]
        for status in statuses {
            let title = Problem.title(forStatus: status)
            #expect(title != "Client Error" && title != "Server Error", "\(status)")
            let code = Problem.code(forStatus: status).rawValue
            #expect(code.allSatisfy { $0.isLetter || $0 == "_" }, "\(status): \(code)")
        }
        #expect(Problem.code(forStatus: 417).rawValue == "expectation_failed")
        #expect(Problem.title(forStatus: 417) == "Expectation Failed")
    }

    /// A uniqueness clash of a group names every attribute in `errors` and the first in `field`.
    @Test func everyProblemWithFieldErrorsHasATopLevelField() {
        let problem = Problem(code: .conflict, detail: "x", errors: [FieldError(field: "a", message: "m"), FieldError(field: "b", message: "m")])
        #expect(problem.field == "a")
    }

    @Test func decodesBackWithJSONDecoder() throws {
        let problem = Problem.conflict("Tag.label \"x\" already exists", field: "label").with(requestId: "r")
        let decoded = try JSONDecoder().decode(Problem.self, from: Data(problem.jsonBytes()))
        #expect(decoded == problem)
    }

    @Test func escapesDetailText() throws {
        let problem = Problem.notFound("no note \"4\\2\"\n")
        let object = try foundationJSON(problem.jsonBytes())
        #expect(object["detail"] as? String == "no note \"4\\2\"\n")
    }
}
