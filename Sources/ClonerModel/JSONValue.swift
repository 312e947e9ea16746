import Foundation

/// A JSON value kept with integer precision, for `userInfo` maps and attribute defaults as written
/// in the model file. `JSONSerialization` would turn every number into a `Double`/`NSNumber` and lose
/// the difference between `1` and `true`, which model validation has to see.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// An integer literal beyond Int64, kept as written: as a double it would be rounded
    /// (`99999999999999999999` → `1e+20`), and an answer that quotes it, or a `json` attribute
    /// that stores it, must give back what the client sent.
    case bigInteger(String)
    /// A number with a fraction or exponent kept as written, because a double would not give back
    /// its digits: more than 15 significant ones, or beyond a double's normal range (`1e-400`).
    /// A `decimal` attribute reads every digit of it and canonical text writes it as it came (so a
    /// `json` attribute keeps it); every other reader takes it as the double it rounds to.
    case preciseNumber(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let v): try container.encode(v)
        case .integer(let v): try container.encode(v)
        case .double(let v): try container.encode(v)
        case .bigInteger(let text), .preciseNumber(let text): try container.encode(Double(text) ?? 0)
        case .string(let v): try container.encode(v)
        case .array(let v): try container.encode(v)
        case .object(let v): try container.encode(v)
        }
    }
}
