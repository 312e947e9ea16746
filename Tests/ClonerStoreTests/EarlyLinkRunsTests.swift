@testable import ClonerStore
import Testing

/// The references and places a parent's line gives its children before their rows come are kept
/// as runs; each child (inserted once) takes exactly its own values, in any order of arrival,
/// and the runs are gone once every child took them.
@Suite struct EarlyLinkRunsTests {
    @Test func consecutiveChildrenOfOneListAreOneRunAndEachTakesItsPlace() {
        var runs = EarlyLinkRuns()
        for (place, id) in (100..<110).enumerated() {
            let added = runs.add(id: Int64(id), column: 0, value: 7, positionColumn: 1, position: Int64(place))
            #expect(added)
        }
        // A second list, of another parent, after the first.
        for (place, id) in (110..<113).enumerated() {
            let added = runs.add(id: Int64(id), column: 0, value: 8, positionColumn: 1, position: Int64(place))
            #expect(added)
        }
        // An id below the runs' end cannot be kept as a run.
        let below = runs.add(id: 105, column: 2, value: 9, positionColumn: nil, position: 0)
        #expect(!below)
        for id in [112, 100, 109, 104, 110, 101, 102, 103, 105, 106, 107, 108, 111] {
            var links = [Int64?](repeating: nil, count: 3)
            let took = runs.take(Int64(id), into: &links)
            #expect(took, "\(id)")
            #expect(links[0] == (id < 110 ? 7 : 8))
            #expect(links[1] == Int64(id < 110 ? id - 100 : id - 110))
            #expect(links[2] == nil)
        }
        #expect(runs.isEmpty)
        var links = [Int64?](repeating: nil, count: 3)
        let before = runs.take(99, into: &links), after = runs.take(113, into: &links)
        #expect(!before && !after)
    }

    @Test func aGapOrAnotherColumnStartsANewRun() {
        var runs = EarlyLinkRuns()
        let added = [
            runs.add(id: 1, column: 0, value: 5, positionColumn: nil, position: 0),
            runs.add(id: 3, column: 0, value: 5, positionColumn: nil, position: 0),
            runs.add(id: 4, column: 1, value: 5, positionColumn: nil, position: 0),
        ]
        #expect(added == [true, true, true])
        var links = [Int64?](repeating: nil, count: 2)
        let gap = runs.take(2, into: &links)
        #expect(!gap)
        let fourth = runs.take(4, into: &links)
        #expect(fourth && links == [nil, 5])
        links = [nil, nil]
        let third = runs.take(3, into: &links)
        #expect(third && links == [5, nil])
        let first = runs.take(1, into: &links)
        #expect(first)
        #expect(runs.isEmpty)
    }
}
