import ClonerModel
import Foundation

/// Writes the object and reference lines of a graph document straight into bytes: a line per
/// object is the export's hot path, and building a `JSONValue` tree per object only to sort and
/// print it cost more than reading the object. Members come in a fixed order (`kind` first);
/// values in the JSON forms of docs/architecture.md#the-model-file.
struct GraphLineWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false
    /// The bytes of a binary value written in pieces (`binaryPiece`) that wait for the rest of
    /// their 3-byte group.
    private var binaryCarry: [UInt8] = []

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

    /// JSON text encoded once that a value follows — a name and its colon (`encodedKey`), the
    /// opening of a line every object repeats — or a whole value that ends a line.
    mutating func encoded(_ encoded: [UInt8]) {
        comma()
        bytes.append(contentsOf: encoded)
        needsComma = false
    }

    /// `"name":` as `key` writes it.
    static func encodedKey(_ name: String) -> [UInt8] {
        var writer = GraphLineWriter(capacity: name.utf8.count + 3)
        writer.key(name)
        return writer.bytes
    }

    /// Decimal digits, as `String(value)` writes them, without the `String`.
    mutating func integer(_ value: Int64) {
        comma()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits at most, written backwards from the end of a buffer on the stack.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
        needsComma = true
    }

    mutating func null() {
        comma()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// A string, escaped as RFC 8259 §7 requires: quote, backslash and control characters.
    mutating func string(_ value: String) {
        if value.utf8.withContiguousStorageIfAvailable({ string(utf8: UnsafeRawBufferPointer($0)) }) != nil { return }
        comma()
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(value.utf8)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string given as its UTF-8 bytes, escaped as `string` escapes it.
    mutating func string(utf8: UnsafeRawBufferPointer) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        // Most strings (names, keys, text) need no escape: appended whole, not a byte at a time.
        if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            appendEscaped(utf8)
        } else {
            bytes.append(contentsOf: utf8)
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func appendEscaped<Bytes: Sequence<UInt8>>(_ utf8: Bytes) {
        for byte in utf8 {
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
        case .uuid(let uuid): self.uuid(uuid)
        case .binary(let data):
            data.withUnsafeBytes { binary(UnsafeRawBufferPointer($0)) }
        case .json(let text):
            comma()
            bytes.append(contentsOf: text.utf8)
            needsComma = true
        case .decimal(let decimal): string(decimal.text)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let base64Digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// A JSON value's text as it is: canonical JSON text the store holds as the service wrote it.
    mutating func json(utf8: UnsafeRawBufferPointer) {
        comma()
        bytes.append(contentsOf: utf8)
        needsComma = true
    }

    /// A binary value: its bytes in base64, in quotes.
    mutating func binary(_ data: UnsafeRawBufferPointer) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        appendBase64(data)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A binary value written in pieces, for one streamed from the store: `beginBinary`, its
    /// bytes in order in pieces of any length (`binaryPiece`), then `endBinary`. The same text
    /// as `binary` with all the bytes at once; `bytes` may be handed on and emptied in between.
    mutating func beginBinary() {
        comma()
        bytes.append(UInt8(ascii: "\""))
        binaryCarry.removeAll(keepingCapacity: true)
    }

    mutating func binaryPiece(_ piece: UnsafeRawBufferPointer) {
        var rest = piece[...]
        if !binaryCarry.isEmpty {
            let take = min(3 - binaryCarry.count, rest.count)
            binaryCarry.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            guard binaryCarry.count == 3 else { return }
            binaryCarry.withUnsafeBytes { appendBase64($0) }
            binaryCarry.removeAll(keepingCapacity: true)
        }
        // Whole 3-byte groups only: base64 pads just the value's end.
        let whole = rest.count / 3 * 3
        appendBase64(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
        binaryCarry.append(contentsOf: rest.dropFirst(whole))
    }

    mutating func endBinary() {
        if !binaryCarry.isEmpty {
            binaryCarry.withUnsafeBytes { appendBase64($0) }
            binaryCarry.removeAll(keepingCapacity: true)
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A uuid in quotes, lower case.
    mutating func uuid(_ uuid: UUID) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        appendLowercaseText(of: uuid)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

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

    /// Every 12 bits' two base64 digits, the first in the low byte: a lookup writes two digits.
    private static let base64Pairs: [UInt16] = (0..<4096).map { bits in
        UInt16(base64Digits[bits >> 6]) | UInt16(base64Digits[bits & 63]) << 8
    }

    /// Standard base64 with padding (RFC 4648 §4, as `base64EncodedData()` writes it), encoded
    /// straight into `bytes`, six input bytes to one 8-byte store while at least eight remain:
    /// Foundation's encoder built a `Data` per value first, a digit at a time, and an array in
    /// between was one more copy of every blob (base64 was a tenth of an export's samples).
    private mutating func appendBase64(_ input: UnsafeRawBufferPointer) {
        let length = (input.count + 2) / 3 * 4
        let first = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: length))
        Self.base64Pairs.withUnsafeBufferPointer { pairs in
            bytes.withUnsafeMutableBytes { whole in
                let out = UnsafeMutableRawBufferPointer(rebasing: whole[first...])
                var position = 0
                var index = 0
                while index + 8 <= input.count {
                    let word = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let high = Int(truncatingIfNeeded: word >> 40), low = Int(truncatingIfNeeded: word >> 16) & 0xFF_FFFF
                    let digits =
                        UInt64(pairs[high >> 12]) | UInt64(pairs[high & 0xFFF]) << 16 | UInt64(pairs[low >> 12]) << 32
                        | UInt64(pairs[low & 0xFFF]) << 48
                    out.storeBytes(of: digits.littleEndian, toByteOffset: position, as: UInt64.self)
                    index += 6
                    position += 8
                }
                while index + 3 <= input.count {
                    let group = Int(input[index]) << 16 | Int(input[index + 1]) << 8 | Int(input[index + 2])
                    out.storeBytes(of: pairs[group >> 12].littleEndian, toByteOffset: position, as: UInt16.self)
                    out.storeBytes(of: pairs[group & 0xFFF].littleEndian, toByteOffset: position + 2, as: UInt16.self)
                    index += 3
                    position += 4
                }
                let rest = input.count - index
                if rest > 0 {
                    let group = Int(input[index]) << 16 | (rest == 2 ? Int(input[index + 1]) << 8 : 0)
                    out.storeBytes(of: pairs[group >> 12].littleEndian, toByteOffset: position, as: UInt16.self)
                    out[position + 2] = rest == 2 ? Self.base64Digits[group >> 6 & 63] : UInt8(ascii: "=")
                    out[position + 3] = UInt8(ascii: "=")
                }
            }
        }
    }

    private mutating func comma() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
