import ClonerModel
import Foundation
import Testing

/// `rebuild: suffix` and its `suffix`, `numberedSuffix` and `maxLength` (docs/architecture.md#unique-values-on-copy),
/// from a model file and from a Core Data model's User Info.
@Suite struct CopySuffixRuleTests {
    static func board(_ userInfo: String, type: String = "string") -> String {
        modelText(#"{"name": "Board", "attributes": [{"name": "slug", "type": "\#(type)", "unique": true, "userInfo": {\#(userInfo)}}]}"#)
    }

    @Test func theDefaultsAreFindersCopyNames() throws {
        let model = try load(Self.board(#""rebuild": "suffix""#))
        let rule = try #require(model.entity(named: "Board")?.attribute(named: "slug")?.cloneRule)
        #expect(rule.rebuild == .suffix)
        #expect(rule.copySuffix == CopySuffix())
        #expect(rule.copySuffix.value(base: "Onboarding", number: 1) == "Onboarding (copy)")
        #expect(rule.copySuffix.value(base: "Onboarding", number: 2) == "Onboarding (copy 2)")
    }

    @Test func aSlugNamesItsOwnSuffixesAndLength() throws {
        let model = try load(Self.board(#""rebuild": "suffix", "suffix": "-copy", "numberedSuffix": "-copy-%d", "maxLength": "12""#))
        let suffix = try #require(model.entity(named: "Board")?.attribute(named: "slug")?.cloneRule.copySuffix)
        #expect(suffix == CopySuffix(suffix: "-copy", numberPrefix: "-copy-", numberSuffix: "", maxLength: 12))
        #expect(suffix.numberedSuffix == "-copy-%d")
        #expect(suffix.value(base: "onboarding-x", number: 1) == "onboard-copy", "the base is shortened, never the suffix")
        #expect(suffix.value(base: "onboarding-x", number: 12) == "onbo-copy-12")
    }

    @Test func aValueIsReadBackToItsBaseAndNumber() {
        let finder = CopySuffix()
        #expect(finder.base(of: "Onboarding (copy)") == "Onboarding")
        #expect(finder.base(of: "Onboarding (copy 12)") == "Onboarding")
        #expect(finder.base(of: "Onboarding") == "Onboarding")
        #expect(finder.base(of: " (copy)") == " (copy)", "nothing is left of the base")
        #expect(finder.base(of: "Onboarding (copy 1234567890)") == "Onboarding (copy 1234567890)", "more digits than a copy number has")
        #expect(finder.number(of: "Onboarding (copy)", base: "Onboarding") == 1)
        #expect(finder.number(of: "Onboarding (copy 7)", base: "Onboarding") == 7)
        #expect(finder.number(of: "Onboarding (copy 7)", base: "Onboard") == nil)
        #expect(finder.number(of: "Onboarding", base: "Onboarding") == nil)
        let slug = CopySuffix(suffix: "-copy", numberPrefix: "-copy-", numberSuffix: "", maxLength: 12)
        #expect(slug.base(of: "onboa-copy-12") == "onboa")
        #expect(slug.number(of: "onbo-copy-12", base: "onboarding-x") == 12, "the base as shortened for that number")
        let ranges = slug.valueRanges(base: "onboarding-x")
        #expect(ranges.first?.from == "onboard-copy")
        #expect(ranges.contains { $0.from == "onbo-copy-" && $0.upTo == "onbo-copy-:" }, "two digits leave four characters of the base")
        #expect(ranges.contains { "onbo-copy-12" >= $0.from && "onbo-copy-12" < $0.upTo })
    }

    @Test func theRuleOnANonTextAttributeIsRefusedSayingWhy() {
        expectSingleProblem(
            Self.board(#""rebuild": "suffix""#, type: "integer"), entity: "Board", property: "slug",
            containing: ["rebuild: suffix applies to string attributes only", "integer"])
    }

    @Test func badSuffixesAreRefusedByName() {
        expectSingleProblem(
            Self.board(#""rebuild": "suffix", "numberedSuffix": " (copy)""#), entity: "Board", property: "slug",
            containing: ["userInfo.numberedSuffix", "must hold %d once"])
        expectSingleProblem(
            Self.board(#""rebuild": "suffix", "numberedSuffix": "%d-copy""#), entity: "Board", property: "slug",
            containing: ["with text before it"])
        expectSingleProblem(Self.board(#""rebuild": "suffix", "suffix": """#), entity: "Board", property: "slug", containing: ["userInfo.suffix"])
        expectSingleProblem(
            Self.board(#""rebuild": "suffix", "maxLength": 9"#), entity: "Board", property: "slug",
            containing: ["userInfo.maxLength", "above 9"])
        #expect(problems(in: Self.board(#""suffix": "-copy", "maxLength": 2"#)).isEmpty, "without the rule they are free user info keys")
    }

    @Test func aCoreDataModelCarriesTheRuleInUserInfo() throws {
        let xml = CoreDataModelTests.contents(
            """
            <entity name="Board" syncable="YES">
                <attribute name="slug" attributeType="String">
                    <userInfo><entry key="rebuild" value="suffix"/><entry key="suffix" value="-copy"/><entry key="numberedSuffix" value="-copy-%d"/><entry key="maxLength" value="40"/></userInfo>
                </attribute>
                <attribute name="rank" optional="YES" attributeType="Integer 64">
                    <userInfo><entry key="rebuild" value="suffix"/></userInfo>
                </attribute>
            </entity>
            """)
        let problems = try CoreDataModelTests.problems(xml)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.property == "rank" && problems.first?.description.contains("applies to string attributes only") == true, "\(problems)")
        let valid = xml.replacingOccurrences(of: #"<entry key="rebuild" value="suffix"/></userInfo>"#, with: "</userInfo>")
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(valid)
        defer { cleanUp() }
        let slug = try #require(try ModelLoader.load(contentsOf: url).entity(named: "Board")?.attribute(named: "slug"))
        #expect(slug.cloneRule.rebuild == .suffix)
        #expect(slug.cloneRule.copySuffix == CopySuffix(suffix: "-copy", numberPrefix: "-copy-", numberSuffix: "", maxLength: 40))
    }

    @Test func aCoreDataStringsMaxLengthBoundsTheCopy() throws {
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(
            CoreDataModelTests.contents(
                """
                <entity name="Board" syncable="YES">
                    <attribute name="title" attributeType="String" maxValueString="24">
                        <userInfo><entry key="rebuild" value="suffix"/></userInfo>
                    </attribute>
                </entity>
                """))
        defer { cleanUp() }
        let title = try #require(try ModelLoader.load(contentsOf: url).entity(named: "Board")?.attribute(named: "title"))
        #expect(title.cloneRule.copySuffix.maxLength == 24)
    }
}
