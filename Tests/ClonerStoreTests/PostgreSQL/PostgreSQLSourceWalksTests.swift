import Testing

@testable import ClonerStore

/// The walks a session remembers stay within their row budget however many sources it clones:
/// the oldest are forgotten first, a walk too large is never kept, and one remembered again
/// replaces itself rather than counting twice.
@Suite struct PostgreSQLSourceWalksTests {
    static func walk(rows: Int, links: Int = 0) -> PostgreSQLSourceWalks.Walk {
        let ids = PostgreSQLValue.int8Array(Array(repeating: 1, count: rows))
        let nullable = PostgreSQLValue.array(element: .int8, Array(repeating: .null, count: rows))
        var walk = PostgreSQLSourceWalks.Walk(
            columns: Array(repeating: ids, count: 5) + Array(repeating: nullable, count: 3), objects: [0: rows], rows: rows, mayAppend: [])
        if links > 0 {
            walk.links = PostgreSQLSourceWalks.Links(
                columns: Array(repeating: .int8Array(Array(repeating: 4, count: links)), count: 3), counts: [4: links], rows: links)
        }
        return walk
    }

    static func key(_ root: Int64) -> PostgreSQLSourceWalks.Key { .init(walk: "walk", rootID: root) }

    @Test func theOldestAreForgottenPastTheBudget() {
        var walks = PostgreSQLSourceWalks()
        let each = 900
        let fitting = PostgreSQLSourceWalks.rowBudget / (each + 100)
        for root in 0..<Int64(fitting + 5) { walks.remember(Self.walk(rows: each, links: 100), for: Self.key(root)) }
        #expect(walks.keptRows <= PostgreSQLSourceWalks.rowBudget)
        #expect(walks[Self.key(0)] == nil, "the oldest forgotten")
        #expect(walks[Self.key(Int64(fitting + 4))]?.links?.rows == 100, "the newest kept, with its links")
        #expect(walks.keptRows == fitting * (each + 100))
    }

    @Test func aWalkTooLargeIsNotKeptAndOneRememberedAgainCountsOnce() {
        var walks = PostgreSQLSourceWalks()
        walks.remember(Self.walk(rows: PostgreSQLSourceWalks.rowLimit + 1), for: Self.key(1))
        walks.remember(Self.walk(rows: 5, links: PostgreSQLSourceWalks.rowLimit + 1), for: Self.key(2))
        #expect(walks[Self.key(1)] == nil && walks[Self.key(2)] == nil && walks.keptRows == 0)
        walks.remember(Self.walk(rows: 5, links: 1), for: Self.key(3))
        walks.remember(Self.walk(rows: 7, links: 1), for: Self.key(3))
        #expect(walks.keptRows == 8 && walks[Self.key(3)]?.rows == 7)
        walks.forget(Self.key(3))
        #expect(walks.keptRows == 0 && walks[Self.key(3)] == nil)
    }
}
