import Foundation
import Testing
@testable import ClonerModel

/// Model rules: required relationships and `exclude`, self-inverse relationships,
/// compound uniqueness (`uniqueTogether`, docs/architecture.md#the-model-file).
@Suite struct ModelHardCaseTests {
    static let memo =
        #"{"name": "Memo", "attributes": [{"name": "text", "type": "string", "optional": true}], "relationships": [{"name": "attachments", "destination": "Attachment", "toMany": true, "inverse": "memo"}]}"#

    // MARK: exclude on a required relationship

    @Test func excludeOnARequiredToOneIsAModelError() {
        expectSingleProblem(
            modelText(
                ModelHardCaseTests.memo,
                #"{"name": "Attachment", "attributes": [], "relationships": [{"name": "memo", "destination": "Memo", "inverse": "attachments", "optional": false, "userInfo": {"exclude": true}}]}"#
            ),
            entity: "Attachment", property: "memo", containing: ["required", "exclude"])
    }

    @Test func excludeOnAnOptionalToOneStillLoads() throws {
        _ = try load(
            modelText(
                ModelHardCaseTests.memo,
                #"{"name": "Attachment", "attributes": [], "relationships": [{"name": "memo", "destination": "Memo", "inverse": "attachments", "userInfo": {"exclude": true}}]}"#
            ))
    }

    // MARK: self-inverse relationships

    static let person = #"""
        {"name": "Person", "attributes": [{"name": "firstName", "type": "string"}, {"name": "lastName", "type": "string"}, {"name": "age", "type": "integer", "optional": true}],
         "relationships": [{"name": "spouse", "destination": "Person", "inverse": "spouse"},
                           {"name": "friends", "destination": "Person", "toMany": true, "inverse": "friends"}]
         UNIQUE}
        """#

    static func person(_ uniqueTogether: String = "") -> String {
        person.replacingOccurrences(of: "UNIQUE", with: uniqueTogether.isEmpty ? "" : #", "uniqueTogether": \#(uniqueTogether)"#)
    }

    @Test func selfInverseRelationshipsLoadAndResolveTheirInverse() throws {
        let model = try load(modelText(ModelHardCaseTests.person()))
        let person = try #require(model.entity(named: "Person"))
        let spouse = try #require(person.relationship(named: "spouse"))
        #expect(spouse.isSelfInverse)
        #expect(!spouse.inverseIsToMany)
        #expect(try #require(person.relationship(named: "friends")).isSelfInverse)
        #expect(model.inverse(of: spouse)?.qualifiedName == "Person.spouse")
    }

    // MARK: uniqueTogether

    @Test func uniqueTogetherLoadsAndIsNormalised() throws {
        let model = try load(modelText(ModelHardCaseTests.person(#"[["firstName", "lastName"]]"#)))
        #expect(model.entity(named: "Person")?.uniqueTogether == [["firstName", "lastName"]])
        let normalized = model.normalizedText
        #expect(normalized.contains("uniqueTogether"))
        let reloaded = try load(normalized)
        #expect(reloaded == model)
        #expect(reloaded.fingerprint == model.fingerprint)
    }

    @Test func uniqueTogetherNamingAnUnknownPropertyIsAnError() {
        expectSingleProblem(
            modelText(ModelHardCaseTests.person(#"[["firstName", "nickname"]]"#)),
            entity: "Person", property: nil, containing: ["uniqueTogether", "nickname"])
    }

    @Test func uniqueTogetherNamingARelationshipIsAnError() {
        expectSingleProblem(
            modelText(ModelHardCaseTests.person(#"[["firstName", "spouse"]]"#)),
            entity: "Person", property: nil, containing: ["uniqueTogether", "spouse", "relationship"])
    }

    @Test func uniqueTogetherRepeatingANameIsAnError() {
        expectSingleProblem(
            modelText(ModelHardCaseTests.person(#"[["firstName", "firstName"]]"#)),
            entity: "Person", property: nil, containing: ["uniqueTogether", "firstName", "twice"])
    }

    @Test func uniqueTogetherRepeatingAGroupIsAnError() {
        expectSingleProblem(
            modelText(ModelHardCaseTests.person(#"[["firstName", "lastName"], ["lastName", "firstName"]]"#)),
            entity: "Person", property: nil, containing: ["uniqueTogether", "firstName", "lastName"])
    }

    @Test(arguments: [#""firstName""#, #"[[]]"#, #"[["firstName", 3]]"#, #"["firstName"]"#])
    func malformedUniqueTogetherIsAnError(value: String) {
        let found = problems(in: modelText(ModelHardCaseTests.person(value)))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.entity == "Person")
        #expect(found.first?.description.contains("uniqueTogether") == true)
    }
}
