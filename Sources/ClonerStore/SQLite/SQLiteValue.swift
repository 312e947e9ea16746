import Foundation

/// A value as SQLite stores it: one of its five storage classes.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob(Data)

    package var int64: Int64? { if case .integer(let v) = self { return v } else { return nil } }
    package var string: String? { if case .text(let v) = self { return v } else { return nil } }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(stringLiteral value: String) { self = .text(value) }
    package init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue {
    /// A fetch position's value, bound as SQLite stores it.
    init(_ value: FetchRequest.Position.Value) {
        switch value {
        case .null: self = .null
        case .integer(let v): self = .integer(v)
        case .double(let v): self = .double(v)
        case .text(let v): self = .text(v)
        case .blob(let v): self = .blob(v)
        }
    }

    var positionValue: FetchRequest.Position.Value {
        switch self {
        case .null: return .null
        case .integer(let v): return .integer(v)
        case .double(let v): return .double(v)
        case .text(let v): return .text(v)
        case .blob(let v): return .blob(v)
        }
    }
}
