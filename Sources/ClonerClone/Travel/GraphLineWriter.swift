import ClonerModel
import Foundation

/// Writes the object and reference lines of a graph document straight into bytes: a line per
/// object is the export's hot path, and building a `JSONValue` tree per object only to sort and
/// print it cost more than reading the object. Members come in a fixed order (`kind` first);
/// values in the JSON forms of docs/architecture.md#the-model-file.
struct GraphLineWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    mutating func beginObject() {
        comma()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        comma()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    mutating func key(_ name: String) {
        comma()
        needsComma = false
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func integer(_ value: Int64) {
        comma()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func null() {
        comma()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// A string, escaped as RFC 8259 §7 requires: quote, backslash and control characters.
    mutating func string(_ value: String) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// An attribute value in its JSON form (the inverse of `AttributeValue.decode(json:type:)`).
    mutating func value(_ value: AttributeValue) {
        switch value {
        case .null: null()
        case .string(let text): string(text)
        case .integer(let number): integer(number)
        case .double(let number):
            comma()
            bytes.append(contentsOf: JSONValue.double(number).canonicalText.utf8)
            needsComma = true
        case .boolean(let flag):
            comma()
            bytes.append(contentsOf: (flag ? "true" : "false").utf8)
            needsComma = true
        case .date(let milliseconds): string(RFC3339Timestamp.format(millisecondsSince1970: milliseconds))
        case .uuid(let uuid): string(uuid.uuidString.lowercased())
        case .binary(let data):
            comma()
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: data.base64EncodedData())
            bytes.append(UInt8(ascii: "\""))
            needsComma = true
        case .json(let text):
            // Canonical JSON text the store holds as written by the service: a value as it is.
            comma()
            bytes.append(contentsOf: text.utf8)
            needsComma = true
        }
    }

    private mutating func comma() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
