import ClonerModel
@testable import ClonerService
import Foundation
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d"}, "e": ""} "#)
        #expect(value == .object([
            "a": .array([.integer(1), .integer(-2), .double(3.5), .double(1000), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("d")]),
            "e": .string(""),
        ]))
    }

    @Test func integersKeep64BitPrecisionAndOverflowBecomesDouble() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try JSONParser.parse("1.0") == .double(1))
        #expect(try JSONParser.parse("-0") == .integer(0))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try JSONParser.parse("\"héllo wörld\"") == .string("héllo wörld"))
    }

    @Test(arguments: [
        ("", 0, "empty document"),
        ("{\"a\":1,}", 7, "expected a string key"),
        ("[1,]", 3, "expected a value"),
        ("01", 0, "leading zeros"),
        ("1.", 2, "digit after the decimal point"),
        ("{\"a\":1 \"b\":2}", 7, "expected ',' or '}'"),
        ("\"abc", 0, "unterminated string"),
        ("\"a\u{01}\"", 2, "control character"),
        ("\"\\ud800\"", 1, "unpaired UTF-16 surrogate"),
        ("\"\\x\"", 1, "invalid escape"),
        ("{\"a\":1,\"a\":2}", 7, "duplicate key \"a\""),
        ("tru", 0, "expected true"),
        ("[1] 2", 4, "unexpected data after"),
        ("1e999", 0, "out of range"),
        ("NaN", 0, "unexpected character 'N'"),
    ])
    func reportsErrorsWithOffsets(input: String, offset: Int, message: String) {
        #expect {
            try JSONParser.parse(input)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.offset == offset && error.message.contains(message)
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func ignoresAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    @Test func limitsNestingDepth() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        _ = try JSONParser.parse(allowed)
    }

    @Test func writerOutputParsesBackAndFoundationAgrees() throws {
        let original: JSONValue = .object([
            "quote\"back\\slash": .string("line\nbreak\u{0001}tab\t\u{7F}é😀"),
            "numbers": .array([.integer(-42), .double(0.1), .double(1e-7), .integer(.max)]),
            "nested": .object(["empty": .array([]), "flag": .bool(false), "nothing": .null]),
        ])
        var writer = JSONWriter()
        writer.value(original)
        #expect(try JSONParser.parse(writer.bytes) == original)
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
