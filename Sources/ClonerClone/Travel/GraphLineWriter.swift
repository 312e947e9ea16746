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
        // Most strings (names, keys, text) need no escape: appended whole, not a byte at a time.
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            needsComma = true
            return
        }
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
        case .uuid(let uuid):
            comma()
            bytes.append(UInt8(ascii: "\""))
            appendLowercaseText(of: uuid)
            bytes.append(UInt8(ascii: "\""))
            needsComma = true
        case .binary(let data):
            comma()
            bytes.append(UInt8(ascii: "\""))
            appendBase64(data)
            bytes.append(UInt8(ascii: "\""))
            needsComma = true
        case .json(let text):
            // Canonical JSON text the store holds as written by the service: a value as it is.
            comma()
            bytes.append(contentsOf: text.utf8)
            needsComma = true
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let base64Digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// RFC 9562 §4's text form in lower case, as `uuidString.lowercased()` gives it, without its
    /// two strings.
    private mutating func appendLowercaseText(of uuid: UUID) {
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
        }
    }

    /// Standard base64 with padding (RFC 4648 §4, as `base64EncodedData()` writes it), encoded
    /// through buffer pointers: Foundation's encoder built a `Data` per value first.
    private mutating func appendBase64(_ data: Data) {
        let length = (data.count + 2) / 3 * 4
        let encoded = Self.base64Digits.withUnsafeBufferPointer { digits in
            data.withUnsafeBytes { input in
                [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
                    var position = 0
                    var index = 0
                    while index + 3 <= input.count {
                        let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        out[position] = digits[Int(group >> 18 & 63)]
                        out[position + 1] = digits[Int(group >> 12 & 63)]
                        out[position + 2] = digits[Int(group >> 6 & 63)]
                        out[position + 3] = digits[Int(group & 63)]
                        index += 3
                        position += 4
                    }
                    let rest = input.count - index
                    if rest > 0 {
                        let group = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                        out[position] = digits[Int(group >> 18 & 63)]
                        out[position + 1] = digits[Int(group >> 12 & 63)]
                        out[position + 2] = rest == 2 ? digits[Int(group >> 6 & 63)] : UInt8(ascii: "=")
                        out[position + 3] = UInt8(ascii: "=")
                    }
                    initialized = length
                }
            }
        }
        bytes.append(contentsOf: encoded)
    }

    private mutating func comma() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
