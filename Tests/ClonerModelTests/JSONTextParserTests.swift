import Foundation
import Testing
@testable import ClonerModel

@Suite struct JSONTextParserTests {
    static let malformed: [(text: String, line: Int, column: Int, reason: String)] = [
        ("{\"entities\": [\n  {\"name\": \"Note\",}\n]}", 2, 19, "expected a member name"),
        ("{\"entities\": [\n  {\"name\": \"Note\"}\n  {\"name\": \"Item\"}\n]}", 3, 3, "expected ',' or ']'"),
        ("{\"entities\": []", 1, 16, "unexpected end of input"),
        ("{\n\"a\": \"unterminated\n}", 2, 19, "control character U+000A"),
        ("{\"a\": \"never closed", 1, 7, "unterminated string"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate member name \"a\""),
        ("", 1, 1, "empty"),
        ("{\"a\": tru}", 1, 7, "expected true"),
        ("{\"a\": 01}", 1, 8, "leading zeros"),
        ("{\"a\": 1.}", 1, 9, "after the decimal point"),
        ("{\"a\": +1}", 1, 7, "unexpected '+'"),
        ("{\"a\": 1} x", 1, 10, "after the end of the JSON value"),
        ("{'a': 1}", 1, 2, "expected a member name in double quotes"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("[\"\\x\"]", 1, 3, "invalid escape"),
        ("[\"\\uD800\"]", 1, 3, "not followed by a low surrogate"),
        ("[\"\\uDC00\"]", 1, 3, "lone low surrogate"),
        ("[1e999]", 1, 2, "out of range"),
        ("{\"é\": [1,]}", 1, 10, "expected a JSON value"),
    ]

    @Test(arguments: malformed)
    func malformedJSONIsLocated(text: String, line: Int, column: Int, reason: String) {
        do {
            _ = try JSONValue(parsing: Data(text.utf8))
            Issue.record("should not parse: \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
        // The loader passes the position on.
        let found = problems(in: text)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("malformed JSON at line \(line), column \(column)") == true, "\(found)")
    }

    @Test func invalidUTF8IsRefused() {
        var bytes = Array("[\"ab".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"]".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Data(bytes)) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONValue(parsing: Data(text.utf8))
            Issue.record("should refuse the nesting")
        } catch {
            #expect(error.reason.contains("nesting"))
            #expect(error.offset == JSONTextParser.maximumDepth)
        }
    }

    @Test func valuesKeepTheirKinds() throws {
        let value = try JSONValue(
            parsing: Data(
                #"﻿ {"i": 1, "d": 1.0, "e": 1e2, "b": true, "n": null, "big": 18446744073709551616, "s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "a": [], "o": {}} "#
                    .utf8))
        #expect(
            value
                == .object([
                    "i": .integer(1), "d": .double(1), "e": .double(100), "b": .bool(true), "n": .null,
                    "big": .bigInteger("18446744073709551616"), "s": .string("a\"\\/\u{08}\u{0C}\n\r\té😀"),
                    "a": .array([]), "o": .object([:]),
                ]))
    }

    /// An integer beyond Int64 is written back as it was read: a double would round it.
    @Test func integersBeyond64BitsKeepTheirText() throws {
        let text = #"{"n":[99999999999999999999,-18446744073709551617,1e20]}"#
        let value = try JSONValue(parsing: Data(text.utf8))
        #expect(value.canonicalText == #"{"n":[99999999999999999999,-18446744073709551617,1e+20]}"#)
        #expect(try AttributeValue.decode(json: .bigInteger("99999999999999999999"), type: .double) == .double(1e20))
        #expect(throws: AttributeValue.JSONMismatch.self) { try AttributeValue.decode(json: .bigInteger("99999999999999999999"), type: .integer) }
    }

    @Test func canonicalTextIsSortedCompactAndReadsBack() throws {
        let value: JSONValue = .object([
            "b": .array([.integer(-3), .double(0.5), .double(1e-7), .null]), "a": .string("q\"\\\n\u{01}é"),
            "é": .bool(false), "Z": .object([:]),
        ])
        #expect(value.canonicalText == #"{"Z":{},"a":"q\"\\\n\u0001é","b":[-3,0.5,1e-07,null],"é":false}"#)
        #expect(try JSONValue(parsing: Data(value.canonicalText.utf8)) == value)
        #expect(try JSONValue(parsing: Data(value.prettyText.utf8)) == value)
        #expect(value.prettyText.contains("\n  \"Z\": {},\n"))
    }
}
