import ClonerModel
import Foundation

extension AttributeType {
    /// The column type: dates are integer milliseconds (exact, and what the JSON form carries),
    /// uuids lower-case canonical text (readable with the sqlite3 shell during an incident).
    package var sqlType: String {
        switch self {
        case .string, .uuid, .json: return "TEXT"
        case .integer, .boolean, .date: return "INTEGER"
        case .double: return "REAL"
        case .binary: return "BLOB"
        // Text keeps every digit; the collation orders it as numbers (SQLiteConnection+DecimalCollation).
        case .decimal: return "TEXT COLLATE \(SQLiteConnection.decimalCollation)"
        }
    }
}

extension AttributeValue {
    package var sqlValue: SQLiteValue {
        switch self {
        case .null: return .null
        case .string(let v): return .text(v)
        case .integer(let v): return .integer(v)
        case .double(let v): return .double(v)
        case .boolean(let v): return .integer(v ? 1 : 0)
        case .date(let ms): return .integer(ms)
        case .uuid(let v): return .text(v.uuidString.lowercased())
        case .binary(let v): return .blob(v)
        case .json(let v): return .text(v)
        case .decimal(let v): return .text(v.text)
        }
    }

    /// The SQL literal for a column DEFAULT clause (used when a migration adds a column to rows
    /// that already exist).
    package var sqlLiteral: String {
        switch sqlValue {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .double(let v): return v.isFinite ? "\(v)" : "NULL"
        case .text(let v): return "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let v): return "X'" + v.lowercaseHex + "'"
        }
    }

    /// Reads a column value back into the attribute's type. A value of another storage class
    /// (written by hand with the sqlite3 shell, say) is converted the way SQLite would, rather
    /// than trapping.
    package init(sql: SQLiteValue, type: AttributeType) {
        switch (sql, type) {
        case (.null, _): self = .null
        case (.text(let v), .string): self = .string(v)
        case (.text(let v), .json): self = .json(v)
        case (.text(let v), .uuid): self = UUID(uuidString: v).map(AttributeValue.uuid) ?? .null
        case (.integer(let v), .integer): self = .integer(v)
        case (.double(let v), .integer): self = .integer(Int64(v))
        case (.integer(let v), .double): self = .double(Double(v))
        case (.double(let v), .double): self = .double(v)
        case (.integer(let v), .boolean): self = .boolean(v != 0)
        case (.integer(let v), .date): self = .date(millisecondsSince1970: v)
        case (.double(let v), .date): self = .date(millisecondsSince1970: Int64(v))
        case (.text(let v), .decimal):
            // Canonical as the store wrote it; text written by hand is read if it is a decimal.
            self = (try? ExactDecimal(parsing: v)).map(AttributeValue.decimal) ?? .null
        case (.integer(let v), .decimal): self = .decimal(ExactDecimal(v))
        case (.double(let v), .decimal): self = (try? ExactDecimal(parsing: v.description)).map(AttributeValue.decimal) ?? .null
        case (.blob(let v), .binary): self = .binary(v)
        case (.text(let v), .binary): self = .binary(Data(v.utf8))
        case (.blob(let v), .string): self = .string(String(decoding: v, as: UTF8.self))
        case (let other, .string): self = .string(other.textForm)
        default: self = .null
        }
    }
}

extension SQLiteValue {
    var textForm: String {
        switch self {
        case .null: return ""
        case .integer(let v): return String(v)
        case .double(let v): return String(v)
        case .text(let v): return v
        case .blob(let v): return String(decoding: v, as: UTF8.self)
        }
    }
}
