@testable import ClonerService
import Testing

@Suite struct BodyObjectCountTests {
    static func count(_ text: String) -> BodyObjectCount { BodyObjectCount(Array(text.utf8)) }

    @Test func countsObjectsBelowTheTopAndNamesTheWidestMember() {
        let count = Self.count(#"{"name":"n","items":[{},{"itemDatas":[{},{}]},{}],"noteDescription":{"content":"x"},"settings":{"a":{}}}"#)
        #expect(count.nested == 8)
        #expect(count.widestMember == "items")
        #expect(count.widestCount == 5)
    }

    @Test func bracesInsideStringsAndEscapedQuotesAreText() {
        let count = Self.count(#"{"na{me":"{\"}{[","items":[{"name":"}}}{{{"}],"x\"{":"{"}"#)
        #expect(count.nested == 1)
        #expect(count.widestMember == "items")
    }

    @Test func aFlatBodyHoldsNone() {
        #expect(Self.count(#"{"name":"n","index":3}"#).nested == 0)
        #expect(Self.count("").nested == 0)
        #expect(Self.count("{").nested == 0)
    }
}
