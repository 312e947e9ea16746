import ClonerModel
import Foundation

/// A strict RFC 8259 parser producing `JSONValue`.
///
/// Why not `JSONSerialization`/`JSONDecoder`: they turn numbers into `NSNumber`/`Double` and lose
/// the difference between `1`, `1.0` and `true` that attribute validation has to see, they do not
/// report duplicate keys, and they are slower for the small bodies the service handles. Integer
/// lexemes that fit in 64 bits become `.integer`; every other number becomes `.double`.
public enum JSONParser {
    /// Nesting deeper than this is refused: recursion on hostile input must not exhaust the stack.
    public static let maximumDepth = 256

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer)
            return Result { () throws(JSONSyntaxError) -> JSONValue in try reader.parseDocument() }
        }
        return try result.get()
    }

    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try parse([UInt8](data))
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONParser {
    struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        init(buffer: UnsafeBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            JSONSyntaxError(offset: offset ?? index, message: message)
        }

        mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
            // RFC 8259 §8.1: a parser MAY ignore a byte order mark.
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
            skipWhitespace()
            guard index < buffer.count else { throw fail("empty document") }
            let value = try parseValue()
            skipWhitespace()
            guard index == buffer.count else { throw fail("unexpected data after the JSON value") }
            return value
        }

        /// RFC 8259 §2: insignificant whitespace is space, tab, line feed and carriage return only.
        mutating func skipWhitespace() {
            while index < buffer.count {
                switch buffer[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
            guard index < buffer.count else { throw fail("unexpected end of input, expected a value") }
            switch buffer[index] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw fail("unexpected character '\(printable(buffer[index]))', expected a value")
            }
        }

        func printable(_ byte: UInt8) -> String {
            (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
        }

        mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
            let start = index
            let count = literal.utf8CodeUnitCount
            guard buffer.count - index >= count else { throw fail("invalid literal, expected \(literal)", at: start) }
            let matches = literal.withUTF8Buffer { expected in
                for offset in 0..<count where buffer[index + offset] != expected[offset] { return false }
                return true
            }
            guard matches else { throw fail("invalid literal, expected \(literal)", at: start) }
            index += count
        }

        mutating func enterContainer() throws(JSONSyntaxError) {
            depth += 1
            guard depth <= JSONParser.maximumDepth else { throw fail("nesting deeper than \(JSONParser.maximumDepth) levels") }
        }

        mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
            try enterContainer()
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < buffer.count, buffer[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < buffer.count, buffer[index] == UInt8(ascii: "\"") else {
                    throw fail("expected a string key in object")
                }
                let keyOffset = index
                let key = try parseString()
                skipWhitespace()
                guard index < buffer.count, buffer[index] == UInt8(ascii: ":") else { throw fail("expected ':' after object key") }
                index += 1
                skipWhitespace()
                let value = try parseValue()
                // RFC 8259 §4 says names SHOULD be unique and leaves duplicates' meaning open; we
                // refuse them rather than silently pick one of the two values.
                guard members.updateValue(value, forKey: key) == nil else {
                    throw fail("duplicate key \"\(key)\"", at: keyOffset)
                }
                skipWhitespace()
                guard index < buffer.count else { throw fail("unexpected end of input inside object") }
                if buffer[index] == UInt8(ascii: ",") {
                    index += 1
                } else if buffer[index] == UInt8(ascii: "}") {
                    index += 1
                    depth -= 1
                    return .object(members)
                } else {
                    throw fail("expected ',' or '}' in object")
                }
            }
        }

        mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
            try enterContainer()
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue())
                skipWhitespace()
                guard index < buffer.count else { throw fail("unexpected end of input inside array") }
                if buffer[index] == UInt8(ascii: ",") {
                    index += 1
                } else if buffer[index] == UInt8(ascii: "]") {
                    index += 1
                    depth -= 1
                    return .array(elements)
                } else {
                    throw fail("expected ',' or ']' in array")
                }
            }
        }

        /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
            let start = index
            if buffer[index] == UInt8(ascii: "-") { index += 1 }
            guard index < buffer.count, isDigit(buffer[index]) else { throw fail("expected a digit", at: index) }
            if buffer[index] == UInt8(ascii: "0") {
                index += 1
                if index < buffer.count, isDigit(buffer[index]) { throw fail("leading zeros are not allowed in numbers", at: start) }
            } else {
                while index < buffer.count, isDigit(buffer[index]) { index += 1 }
            }
            var isInteger = true
            if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard index < buffer.count, isDigit(buffer[index]) else { throw fail("expected a digit after the decimal point") }
                while index < buffer.count, isDigit(buffer[index]) { index += 1 }
            }
            if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") { index += 1 }
                guard index < buffer.count, isDigit(buffer[index]) else { throw fail("expected a digit in the exponent") }
                while index < buffer.count, isDigit(buffer[index]) { index += 1 }
            }
            let lexeme = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
            if isInteger, let value = Int64(lexeme) { return .integer(value) }
            guard let value = Double(lexeme), value.isFinite else {
                throw fail("number \(lexeme) is out of range", at: start)
            }
            return .double(value)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        /// RFC 8259 §7 (strings and escapes) and §8.1 (text is UTF-8; invalid bytes are refused, not replaced).
        mutating func parseString() throws(JSONSyntaxError) -> String {
            let start = index
            index += 1
            let contentStart = index
            // Fast path: no escapes.
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: buffer[contentStart..<index])
                    index += 1
                    guard let text = String(validating: slice, as: UTF8.self) else {
                        throw fail("string is not valid UTF-8", at: start)
                    }
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw fail("unescaped control character in string") }
                index += 1
            }
            guard index < buffer.count else { throw fail("unterminated string", at: start) }
            var bytes = Array(UnsafeBufferPointer(rebasing: buffer[contentStart..<index]))
            while index < buffer.count {
                let byte = buffer[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        throw fail("string is not valid UTF-8", at: start)
                    }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < buffer.count else { throw fail("unterminated escape") }
                    let escape = buffer[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): bytes.append(0x22)
                    case UInt8(ascii: "\\"): bytes.append(0x5C)
                    case UInt8(ascii: "/"): bytes.append(0x2F)
                    case UInt8(ascii: "b"): bytes.append(0x08)
                    case UInt8(ascii: "f"): bytes.append(0x0C)
                    case UInt8(ascii: "n"): bytes.append(0x0A)
                    case UInt8(ascii: "r"): bytes.append(0x0D)
                    case UInt8(ascii: "t"): bytes.append(0x09)
                    case UInt8(ascii: "u"):
                        let scalar = try parseUnicodeEscape()
                        bytes.append(contentsOf: String(Character(scalar)).utf8)
                    default:
                        throw fail("invalid escape '\\\(printable(escape))'", at: index - 2)
                    }
                default:
                    if byte < 0x20 { throw fail("unescaped control character in string") }
                    bytes.append(byte)
                    index += 1
                }
            }
            throw fail("unterminated string", at: start)
        }

        /// `\uXXXX`, joining a UTF-16 surrogate pair (RFC 8259 §7); a lone surrogate is refused.
        mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
            let escapeStart = index - 2
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard buffer.count - index >= 6, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired UTF-16 surrogate in \\u escape", at: escapeStart)
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired UTF-16 surrogate in \\u escape", at: escapeStart) }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value)!
            }
            guard let scalar = Unicode.Scalar(high) else { throw fail("unpaired UTF-16 surrogate in \\u escape", at: escapeStart) }
            return scalar
        }

        mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
            guard buffer.count - index >= 4 else { throw fail("expected 4 hex digits after \\u") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = buffer[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail("expected 4 hex digits after \\u")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
