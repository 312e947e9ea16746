import Testing
@testable import ClonerModel

/// A relationship's `naturalKey` (how a travelling graph finds its shared destinations on another
/// store) is checked when the model loads: it names attributes of the destination.
@Suite struct NaturalKeyValidationTests {
    static func model(_ key: String) -> String {
        modelText(
            #"{"name": "Card", "attributes": [{"name": "title", "type": "string"}], "relationships": [{"name": "labels", "destination": "Label", "toMany": true, "inverse": "cards", "userInfo": {"naturalKey": \#(key)}}]}"#,
            #"{"name": "Label", "attributes": [{"name": "name", "type": "string"}, {"name": "board", "type": "string"}], "relationships": [{"name": "cards", "destination": "Card", "toMany": true, "inverse": "labels"}]}"#
        )
    }

    @Test func namesAttributesOfTheDestination() throws {
        #expect(try load(Self.model(#""name""#)).entity(named: "Card")?.relationship(named: "labels")?.naturalKey == ["name"])
        #expect(try load(Self.model(#"["board", "name"]"#)).entity(named: "Card")?.relationship(named: "labels")?.naturalKey == ["board", "name"])
    }

    @Test func anAttributeTheDestinationLacksIsAProblem() {
        expectSingleProblem(
            Self.model(#"["name", "colour"]"#), entity: "Card", property: "labels",
            containing: ["naturalKey names colour", "Label", "userInfo.naturalKey"])
    }

    @Test(arguments: ["[]", "3", #"[1]"#])
    func notANameOrListIsAProblem(_ key: String) {
        expectSingleProblem(Self.model(key), entity: "Card", property: "labels", containing: ["naturalKey must be"])
    }
}
