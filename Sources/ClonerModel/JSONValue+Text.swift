import Foundation

extension JSONValue {
    /// Parses a JSON text strictly (RFC 8259), keeping integers exact and refusing duplicate member
    /// names; the error says where, by line, column and byte offset.
    public init(parsing data: Data) throws(JSONSyntaxError) {
        self = try JSONTextParser.parse(data)
    }

    /// Parses bytes as they arrive in a request body, without copying them into `Data` first.
    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        self = try JSONTextParser.parse(bytes: bytes)
    }

    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try JSONTextParser.parse(bytes: Array(text.utf8))
    }

    /// Compact JSON with object members sorted by the UTF-8 bytes of their names: the same value
    /// always gives the same bytes, on every platform, which is what fingerprints and equality of
    /// JSON attribute values rely on.
    public var canonicalText: String {
        var output = ""
        write(to: &output, indent: nil)
        return output
    }

    /// Sorted like `canonicalText`, indented two spaces per level for people reading it.
    public var prettyText: String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    private func write(to output: inout String, indent: Int?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .double(let value):
            precondition(value.isFinite, "JSON cannot represent \(value); refuse it before building a JSONValue")
            // Swift's description is the shortest text that reads back to the same Double, and its
            // forms ("1.0", "1e-05", "1e+20") are all valid RFC 8259 §6 numbers.
            output += value.description
        case .bigInteger(let text), .preciseNumber(let text): output += text
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                Self.newline(&output, indent.map { $0 + 1 })
                element.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.newline(&output, indent)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            let names = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (position, name) in names.enumerated() {
                if position > 0 { output += "," }
                Self.newline(&output, indent.map { $0 + 1 })
                Self.writeString(name, to: &output)
                output += indent == nil ? ":" : ": "
                members[name]!.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.newline(&output, indent)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, _ indent: Int?) {
        guard let indent else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    // RFC 8259 §7: quotation mark, reverse solidus and control characters must be escaped;
    // everything else is written as UTF-8.
    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Most strings need no escaping; append those whole instead of scalar by scalar.
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let digits = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// A short rendering for error messages: strings quoted and cut, containers by kind.
    var briefDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .double(let value): return value.description
        case .bigInteger(let text), .preciseNumber(let text): return text.count > 40 ? text.prefix(40) + "…" : text
        case .string(let value):
            return value.count > 40 ? "\"\(value.prefix(40))…\"" : "\"\(value)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    var objectValue: [String: JSONValue]? { if case .object(let members) = self { return members } else { return nil } }
}
