import Foundation

/// A typed attribute value as the layers above the store see it.
///
/// Dates keep millisecond precision because that is what the store persists and what the JSON form
/// (RFC 3339 with milliseconds) can express; a value that round-trips must compare equal.
public enum AttributeValue: Sendable, Hashable {
    case null
    case string(String)
    case integer(Int64)
    case double(Double)
    case boolean(Bool)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case date(millisecondsSince1970: Int64)
    case uuid(UUID)
    case binary(Data)
    /// Canonical JSON text (a value of any JSON type).
    case json(String)
    /// An exact decimal in its canonical text (`ExactDecimal`).
    case decimal(ExactDecimal)

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The type this value belongs to, or nil for `.null`, which fits every optional attribute.
    public var type: AttributeType? {
        switch self {
        case .null: return nil
        case .string: return .string
        case .integer: return .integer
        case .double: return .double
        case .boolean: return .boolean
        case .date: return .date
        case .uuid: return .uuid
        case .binary: return .binary
        case .json: return .json
        case .decimal: return .decimal
        }
    }

    public static func date(_ date: Date) -> AttributeValue {
        .date(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}
