import ClonerModel
import Testing

@testable import ClonerStore

/// An import's clashing values of a `rebuild: suffix` attribute, numbered as a clone's copies
/// are (docs/architecture.md#unique-values-on-copy).
@Suite struct CopySuffixClashesTests {
    let clashes = CopySuffixClashes(suffix: CopySuffix())

    @Test func aValueThatClashesWithNothingIsKept() {
        #expect(clashes.numbered(["Onboarding", nil], existing: ["Other"]) == ["Onboarding", nil])
    }

    @Test func aClashTakesTheLowestFreeNumberOfItsBase() {
        let existing: Set = ["Onboarding", "Onboarding (copy)", "Onboarding (copy 3)"]
        #expect(
            clashes.numbered(["Onboarding", "Onboarding (copy)", "Onboarding"], existing: existing) == [
                "Onboarding (copy 2)", "Onboarding (copy 4)", "Onboarding (copy 5)",
            ])
    }

    @Test func aBatchKeepsItsFirstValueAndNumbersTheRepeats() {
        #expect(
            clashes.numbered(["Onboarding (copy)", "Onboarding", "Onboarding"], existing: []) == [
                "Onboarding (copy)", "Onboarding", "Onboarding (copy 2)",
            ])
    }

    @Test func theRangesHoldTheValueAndEveryCopyOfItsBase() {
        let ranges = clashes.ranges(of: ["Onboarding (copy 2)", nil])
        for value in ["Onboarding (copy 2)", "Onboarding (copy)", "Onboarding (copy 17)"] {
            #expect(ranges.contains { value >= $0.from && value < $0.upTo }, "\(value)")
        }
        #expect(!ranges.contains { "Onboarding plan" >= $0.from && "Onboarding plan" < $0.upTo })
    }
}
