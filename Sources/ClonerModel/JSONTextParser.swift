import Foundation

/// A strict RFC 8259 parser producing `JSONValue`.
///
/// Why not `JSONSerialization`/`JSONDecoder`: they turn numbers into `NSNumber`/`Double` (so `1`,
/// `1.0` and `true` blur together, which default and rule validation must tell apart), they accept
/// duplicate object keys silently (the last one wins, hiding a typo'd copy of a field), and their
/// error positions differ between platforms. This parser keeps integers as `Int64`, rejects duplicate
/// keys, and reports line/column/byte offset for every error.
struct JSONTextParser {
    /// Deeper nesting than this is refused instead of risking the stack: a model or request body
    /// never needs it, a hostile input would.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index: Int = 0
    private var depth: Int = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: [UInt8](data))
    }

    static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONTextParser(bytes: bytes)
        return try parser.parseDocument()
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        // RFC 8259 §8.1: a parser MAY ignore a leading byte order mark; editors on some systems add one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeCurrent()) after the end of the JSON value") }
        return value
    }

    // RFC 8259 §2: insignificant whitespace is space, tab, line feed, carriage return — nothing else.
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input; expected a JSON value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    // RFC 8259 §3: the literal names are lowercase and exact.
    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                index = start
                throw error("invalid literal; expected \(literal)")
            }
            index += 1
        }
    }

    // RFC 8259 §4: members separated by commas, no trailing comma; RFC 8259 §4 says names SHOULD be
    // unique — we make it a MUST, because a duplicated field in a hand-written file is always a mistake.
    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeCurrent())")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            guard members.updateValue(value, forKey: key) == nil else {
                throw error("duplicate member name \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input; expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return .object(members)
            default: throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }

    // RFC 8259 §5: values separated by commas, no trailing comma.
    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input; expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; depth -= 1; return .array(elements)
            default: throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    // RFC 8259 §6: -? int frac? exp?, no leading zeros, no leading '+', no bare '.'.
    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number must not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after the decimal point") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            // An integer beyond Int64 keeps its text, whatever its length: a double would round
            // it, and the reader that knows the field decides — so a refusal names the field.
            return Int64(text).map(JSONValue.integer) ?? .bigInteger(text)
        }
        // RFC 8259 §6 lets implementations limit range: a fraction or exponent no double holds is refused.
        guard let value = Double(text), value.isFinite else {
            throw error("the number \(text.prefix(40))\(text.count > 40 ? "…" : "") is out of range", at: start)
        }
        return keepsDigits(start..<index) || Self.sameNumber(text, value.description) ? .double(value) : .preciseNumber(text)
    }

    /// Whether two number texts write the same value (`0.30000000000000004` and a double's
    /// shortest text for it): for a long number whose double may still give back every digit.
    private static func sameNumber(_ text: String, _ other: String) -> Bool {
        var text = text
        var other = other
        guard let left = text.withUTF8({ try? DecimalParts($0) }), let right = other.withUTF8({ try? DecimalParts($0) }) else { return false }
        return left.isNegative == right.isNegative && left.digits == right.digits && left.exponent == right.exponent
    }

    /// The most significant digits a decimal text may have for its double to give them back: a
    /// double's shortest text (`description`) is then the number written.
    static let doubleDecimalDigits = 15
    /// Decimal orders of magnitude within a double's normal range, where it keeps those digits.
    static let doubleNormalOrders = -307...307

    /// Whether the double of the number at `range` (a valid RFC 8259 number with a fraction or
    /// exponent) gives back its value: at most 15 significant digits, inside the normal range.
    /// Counted in place, as most numbers in a body are short.
    private func keepsDigits(_ range: Range<Int>) -> Bool {
        var significant = 0
        var pendingZeros = 0
        var integerDigits = 0
        var leadingFractionZeros = 0
        var inFraction = false
        var index = range.lowerBound
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < range.upperBound, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ".") { inFraction = true; continue }
            if significant == 0 && byte == UInt8(ascii: "0") {
                if inFraction { leadingFractionZeros += 1 }
                continue
            }
            if !inFraction { integerDigits += 1 }
            if byte == UInt8(ascii: "0") {
                pendingZeros += 1
            } else {
                significant += pendingZeros + 1
                pendingZeros = 0
            }
        }
        if significant == 0 { return true }
        guard significant <= Self.doubleDecimalDigits else { return false }
        var exponent = 0
        if index < range.upperBound {
            index += 1
            var negative = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < range.upperBound {
                // Past four digits the order is far outside the range either way.
                if exponent < 10_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            if negative { exponent = -exponent }
        }
        // The order of the first significant digit: 1.5 is 0, 0.015 is -2.
        let order = integerDigits > 0 ? integerDigits - 1 + exponent : -(leadingFractionZeros + 1) + exponent
        return Self.doubleNormalOrders.contains(order)
    }

    // RFC 8259 §7: escapes, \u with UTF-16 surrogate pairs, no raw control characters; RFC 8259 §8.1:
    // the text is UTF-8, so invalid sequences are refused rather than replaced.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw error("the string is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0x00..<0x20:
                throw error("control character U+\(hex4(UInt16(byte))) must be escaped in a string")
            default:
                // Copy the run of plain bytes up to the next quote, escape or control character at once.
                let runStart = index
                index += 1
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    index += 1
                }
                buffer.append(contentsOf: bytes[runStart..<index])
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("unterminated escape sequence", at: escapeStart) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHex4(escapeStart: escapeStart)
            var scalarValue = UInt32(first)
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("high surrogate \\u\(hex4(first)) is not followed by a low surrogate", at: escapeStart)
                }
                let lowStart = index
                index += 2
                let second = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error("high surrogate \\u\(hex4(first)) is not followed by a low surrogate", at: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw error("lone low surrogate \\u\(hex4(first))", at: escapeStart)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw error("invalid Unicode escape", at: escapeStart)
            }
            buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw error("invalid escape sequence", at: escapeStart)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = bytes[index].hexDigitValue else {
                throw error("\\u must be followed by four hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Line and column are computed only when an error is thrown, so the happy path pays nothing.
    private func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for position in 0..<offset where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        // Count scalars, not bytes: UTF-8 continuation bytes (10xxxxxx) do not start a new column.
        let column = bytes[lineStart..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return JSONSyntaxError(offset: offset, line: line, column: column, reason: reason)
    }
}
