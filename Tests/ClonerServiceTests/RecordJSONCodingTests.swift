import ClonerModel
@testable import ClonerService
import Foundation
import Testing

@Suite struct RecordJSONCodingTests {
    func decode(_ json: String, _ type: AttributeType) throws -> AttributeValue {
        try RecordJSONCoding.decodeValue(try JSONValue(parsing: json), type: type, field: "f")
    }

    func decodeError(_ json: String, _ type: AttributeType) -> FieldError? {
        do {
            _ = try decode(json, type)
            return nil
        } catch let error as FieldError {
            return error
        } catch {
            return FieldError(field: "?", message: "\(error)")
        }
    }

    /// One canonical text for `json` values, whatever path they take (record body, model
    /// default, `set`, query filter, a JSONWriter answer). Keys go in UTF-8 byte order, which
    /// differs from `String <` for text not in NFC ("e" + U+0301 sorts before "f" by bytes).
    @Test func equalJSONValuesAreStoredAsEqualText() throws {
        let orders = [
            #"{"f": 1, "e\u0301": [true, null], "z": {"b": 2, "a": 1}}"#,
            #"{"z": {"a": 1, "b": 2}, "e\u0301": [true, null], "f": 1}"#,
        ]
        var texts: Set<String> = []
        for text in orders {
            let json = try JSONValue(parsing: text)
            guard case .json(let stored) = try decode(text, .json) else { Issue.record("not json"); continue }
            texts.insert(stored)
            #expect(AttributeValue(json: json, type: .json) == .json(stored), "the model's mapping gives the same text")
            #expect(try RecordJSONCoding.decodeQueryValue(text, type: .json, field: "f") == .json(stored), "a filter gives the same text")
            var writer = JSONWriter()
            writer.value(json)
            #expect(writer.string == stored, "an answer writes the same text")
        }
        #expect(texts == ["{\"e\u{301}\":[true,null],\"f\":1,\"z\":{\"a\":1,\"b\":2}}"])
    }

    @Test func decodesEveryType() throws {
        let uuid = try #require(UUID(uuidString: "0f8fad5b-d9cb-469f-a165-70867728950e"))
        #expect(try decode(#""text""#, .string) == .string("text"))
        #expect(try decode("42", .integer) == .integer(42))
        #expect(try decode("1.0", .integer) == .integer(1))
        #expect(try decode("-9223372036854775808", .integer) == .integer(.min))
        #expect(try decode("2", .double) == .double(2))
        #expect(try decode("2.5e-3", .double) == .double(0.0025))
        #expect(try decode("true", .boolean) == .boolean(true))
        #expect(try decode(#""2026-11-21T21:15:29.1234+01:00""#, .date) == .date(millisecondsSince1970: 1_795_292_129_123))
        #expect(try decode(#""0F8FAD5B-D9CB-469F-A165-70867728950E""#, .uuid) == .uuid(uuid))
        #expect(try decode(#""AAEC/w==""#, .binary) == .binary(Data([0, 1, 2, 255])))
        #expect(try decode(#"{"b": [1, 2.5, null], "a": "x"}"#, .json) == .json(#"{"a":"x","b":[1,2.5,null]}"#))
        #expect(try decode(#""just text""#, .json) == .json(#""just text""#))
        #expect(try decode("null", .string) == .null)
    }

    @Test func refusesWrongTypesNamingWhatWasExpected() {
        let cases: [(String, AttributeType, String)] = [
            ("1.5", .integer, "expected an integer, got 1.5"),
            ("9223372036854775808", .integer, "out of range"),
            ("1e300", .integer, "out of range"),
            (#""12""#, .integer, "expected an integer, got \"12\""),
            ("1", .boolean, "expected true or false, got 1"),
            ("0", .boolean, "expected true or false, got 0"),
            (#""true""#, .boolean, "expected true or false"),
            ("12", .string, "expected a string, got 12"),
            (#"{"a":1}"#, .string, "expected a string, got an object"),
            (#""2026-11-21""#, .date, "RFC 3339"),
            ("1700000000", .date, "RFC 3339"),
            (#""not-a-uuid""#, .uuid, "expected a UUID"),
            (#""%%%""#, .binary, "base64"),
            ("true", .double, "expected a number, got true"),
        ]
        for (json, type, message) in cases {
            let error = decodeError(json, type)
            #expect(error?.field == "f", "\(json) as \(type)")
            #expect(error?.message.contains(message) == true, "\(json) as \(type): \(String(describing: error))")
        }
    }

    @Test func decodesQueryText() throws {
        #expect(try RecordJSONCoding.decodeQueryValue("foo", type: .string, field: "name") == .string("foo"))
        #expect(try RecordJSONCoding.decodeQueryValue("-3", type: .integer, field: "index") == .integer(-3))
        #expect(try RecordJSONCoding.decodeQueryValue("false", type: .boolean, field: "b") == .boolean(false))
        #expect(try RecordJSONCoding.decodeQueryValue("2026-11-21T20:15:29Z", type: .date, field: "d") == .date(millisecondsSince1970: 1_795_292_129_000))
        #expect(try RecordJSONCoding.decodeQueryValue(#"{"z":1,"a":2}"#, type: .json, field: "j") == .json(#"{"a":2,"z":1}"#))
        #expect(throws: FieldError.self) { try RecordJSONCoding.decodeQueryValue("1.5", type: .integer, field: "index") }
        #expect(throws: FieldError.self) { try RecordJSONCoding.decodeQueryValue("1", type: .boolean, field: "b") }
    }

    @Test func writesValuesInTheirJSONForms() throws {
        let uuid = try #require(UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E"))
        #expect(RecordJSONCoding.jsonText(.uuid(uuid)) == #""0f8fad5b-d9cb-469f-a165-70867728950e""#)
        #expect(RecordJSONCoding.jsonText(.date(millisecondsSince1970: 1_795_292_129_123)) == #""2026-11-21T20:15:29.123Z""#)
        #expect(RecordJSONCoding.jsonText(.binary(Data([0, 1, 2, 255]))) == #""AAEC/w==""#)
        #expect(RecordJSONCoding.jsonText(.json(#"{"a":[1]}"#)) == #"{"a":[1]}"#)
        #expect(RecordJSONCoding.jsonText(.integer(-7)) == "-7")
        #expect(RecordJSONCoding.jsonText(.double(0.5)) == "0.5")
        #expect(RecordJSONCoding.jsonText(.boolean(false)) == "false")
        #expect(RecordJSONCoding.jsonText(.null) == "null")
        // Every type round-trips through its JSON form.
        let values: [(AttributeValue, AttributeType)] = [
            (.string("é\"\n"), .string), (.integer(.max), .integer), (.double(-1.25e-10), .double), (.boolean(true), .boolean),
            (.date(millisecondsSince1970: -62_135_596_800_000), .date), (.uuid(uuid), .uuid), (.binary(Data(0...255)), .binary),
            (.json(#"[{"a":null}]"#), .json),
        ]
        for (value, type) in values {
            #expect(try decode(RecordJSONCoding.jsonText(value), type) == value, "\(value)")
        }
    }

    @Test func encodesARecordFlatWithServiceKeysFirst() throws {
        let note = try #require(sampleModel.entity(named: "Note"))
        let uuid = try #require(UUID(uuidString: "0f8fad5b-d9cb-469f-a165-70867728950e"))
        let bytes = RecordJSONCoding.encodeRecord(
            entity: note, id: 42, version: 3,
            attributes: [
                .uuid(uuid), .string("Groceries"), .date(millisecondsSince1970: 0), .integer(1), .null, .double(2.5), .boolean(true), .json("{\"k\":1}"),
            ],
            relationships: [.toMany([7, 8]), .toMany([])])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text
                == #"{"_id":42,"_entity":"Note","_version":3,"id":"0f8fad5b-d9cb-469f-a165-70867728950e","name":"Groceries","createDate":"1970-01-01T00:00:00.000Z","index":1,"data":null,"score":2.5,"pinned":true,"extra":{"k":1},"items":[7,8],"tags":[]}"#
        )
        _ = try foundationJSON(bytes)
        let item = try #require(sampleModel.entity(named: "Item"))
        let itemText = String(
            decoding: RecordJSONCoding.encodeRecord(entity: item, id: 1, version: 1, attributes: [.null, .null], relationships: [.toOne(nil)]), as: UTF8.self)
        #expect(itemText.hasSuffix(#""note":null}"#))
    }
}
