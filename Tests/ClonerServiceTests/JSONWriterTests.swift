import ClonerModel
@testable import ClonerService
import Foundation
import Testing

@Suite struct JSONWriterTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #" {"a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d"}, "e": ""} "#)
        #expect(
            value
                == .object([
                    "a": .array([.integer(1), .integer(-2), .double(3.5), .double(1000), .bool(true), .bool(false), .null]),
                    "b": .object(["c": .string("d")]),
                    "e": .string(""),
                ]))
    }

    @Test func integersKeep64BitPrecisionAndOverflowKeepsItsText() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .integer(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .integer(.min))
        #expect(try JSONValue(parsing: "9223372036854775808") == .bigInteger("9223372036854775808"))
        #expect(try JSONValue(parsing: "1.0") == .double(1))
        #expect(try JSONValue(parsing: "-0") == .integer(0))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONValue(parsing: #""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try JSONValue(parsing: "\"héllo wörld\"") == .string("héllo wörld"))
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func ignoresAByteOrderMark() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    @Test func writerOutputParsesBackAndFoundationAgrees() throws {
        let original: JSONValue = .object([
            "quote\"back\\slash": .string("line\nbreak\u{0001}tab\t\u{7F}é😀"),
            "numbers": .array([.integer(-42), .double(0.1), .double(1e-7), .integer(.max)]),
            "nested": .object(["empty": .array([]), "flag": .bool(false), "nothing": .null]),
        ])
        var writer = JSONWriter()
        writer.value(original)
        #expect(try JSONValue(parsing: writer.bytes) == original)
        let foundation = try foundationJSON(writer.bytes)
        #expect(foundation["quote\"back\\slash"] as? String == "line\nbreak\u{0001}tab\t\u{7F}é😀")
        // Keys are sorted, so equal values always give equal text.
        #expect(writer.string.hasPrefix(#"{"nested":"#))
    }

    @Test func writerPlacesCommasAndWritesNonFiniteAsNull() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a"); writer.beginArray(); writer.integer(1); writer.integer(2); writer.beginObject(); writer.endObject(); writer.endArray()
        writer.key("b"); writer.double(.nan)
        writer.key("c"); writer.integer(Int64.min)
        writer.endObject()
        #expect(writer.string == #"{"a":[1,2,{}],"b":null,"c":-9223372036854775808}"#)
    }
}
