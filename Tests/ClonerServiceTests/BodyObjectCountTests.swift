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

@Suite struct BodyValueCountTests {
    static func count(_ text: String) -> BodyObjectCount { BodyObjectCount(Array(text.utf8)) }

    @Test func everyValueCountsOnceAndTheMemberHoldingMostIsNamed() {
        // The body, name, "n", items (an array of 3), the objects' members (1 + 2), settings'
        // array of 4 numbers, and a nested empty object and array.
        let count = Self.count(#"{"name":"n","items":[{},{"a":1,"b":[]},{}],"settings":{"list":[1, 2,3 ,4],"e":{}}}"#)
        #expect(count.values == 1 + 1 + 1 + 3 + 2 + 1 + 1 + 4 + 1)
        #expect(count.mostValuesMember == "settings")
        #expect(count.mostValues == 7)
    }

    @Test func anArrayOfScalarsCountsEachElement() {
        let numbers = (1...5000).map(String.init).joined(separator: ",")
        let count = Self.count(#"{"name":"x","data":{"j":[\#(numbers)]}}"#)
        #expect(count.values == 1 + 2 + 1 + 5000)
        #expect(count.mostValuesMember == "data")
        #expect(count.mostValues == 5002)
        #expect(count.nested == 1)
    }

    @Test func textThatLooksLikeValuesIsNotCounted() {
        #expect(Self.count(#"{"a":"[1,2,3]","b":"{\"x\":[1,2]}"}"#).values == 3)
        #expect(Self.count("").values == 0)
        #expect(Self.count("{}").values == 1)
        #expect(Self.count("[]").values == 1)
    }
}
