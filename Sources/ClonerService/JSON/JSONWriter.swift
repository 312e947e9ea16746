import ClonerModel
import Foundation

/// Appends JSON text to a byte buffer, in the order the caller writes it.
///
/// Records, problems and log lines are written with this instead of `JSONEncoder`/
/// `JSONSerialization`: the service's answers need a fixed key order (`_id`, `_entity`, `_version`
/// first), and building one `[UInt8]` straight from typed values avoids a dictionary and an
/// `NSNumber` per value on the hot path. Commas are placed automatically: call `key` before each
/// object member's value, and nothing between array elements.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Whether the next key or value must be preceded by a comma.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Continues an existing buffer (e.g. a list answer that appends one record after another).
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object member's name; its value must follow.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// An object member's name already encoded by `encodedKey` (`"name":`): records write the
    /// same names on every row, so they are quoted and escaped once, not per row.
    public mutating func key(encoded: [UInt8]) {
        separate()
        bytes.append(contentsOf: encoded)
        needsComma = false
    }

    /// `"name":` as `key(_:)` writes it, for `key(encoded:)`.
    public static func encodedKey(_ name: String) -> [UInt8] {
        var writer = JSONWriter(capacity: name.utf8.count + 3)
        writer.key(name)
        return writer.bytes
    }

    /// A string value already encoded by `encodedString` (quoted and escaped).
    public mutating func string(encoded: [UInt8]) {
        separate()
        bytes.append(contentsOf: encoded)
        needsComma = true
    }

    /// `"text"` as `string(_:)` writes it, for `string(encoded:)`.
    public static func encodedString(_ text: String) -> [UInt8] {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return writer.bytes
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    public mutating func integer(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    public mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// JSON has no NaN or infinity (RFC 8259 §6); they are written as null rather than as invalid text.
    public mutating func double(_ value: Double) {
        separate()
        if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Text that is already valid JSON (a `json` attribute's stored canonical text), copied verbatim.
    public mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
        needsComma = true
    }

    /// A `JSONValue` in its one canonical text (`JSONValue.canonicalText`: keys in UTF-8 byte
    /// order), so a value written here and one stored in a `json` attribute are the same bytes.
    public mutating func value(_ value: JSONValue) {
        raw(value.canonicalText)
    }

    mutating func appendDecimal(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        // Digits are produced backwards into a stack buffer: no String allocation per number.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// RFC 8259 §7: quotation mark, reverse solidus and the control characters U+0000–U+001F must
    /// be escaped; everything else may pass as UTF-8.
    mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)],
                    ])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A UUID in canonical lower-case text (RFC 9562 §4), formatted from its bytes without the
    /// upper-case `uuidString` and a `lowercased()` copy.
    public mutating func uuid(_ value: UUID) {
        separate()
        // The 38 bytes (quotes included) are formatted on the stack and appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 38) { text in
            text[0] = UInt8(ascii: "\"")
            var position = 1
            withUnsafeBytes(of: value.uuid) { uuidBytes in
                for (offset, byte) in uuidBytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Self.hexDigit(byte >> 4)
                    text[position + 1] = Self.hexDigit(byte & 0xF)
                    position += 2
                }
            }
            text[37] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
        needsComma = true
    }

    /// A lower-case hex digit for 0…15, computed rather than looked up (no bounds check, no array).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// A date as RFC 3339 UTC text with milliseconds.
    public mutating func date(millisecondsSince1970 milliseconds: Int64) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        RFC3339Timestamp.append(millisecondsSince1970: milliseconds, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }
}
