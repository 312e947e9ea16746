import ClonerModel
import Foundation

/// The kinds the service tables read beyond ids and bytes, through the row's attribute reader so
/// each backend decodes them its own way (a `timestamptz` on PostgreSQL, integer milliseconds on
/// SQLite).
extension SQLRow {
    func text(_ column: Int) -> String {
        if case .string(let text) = attributeValue(column, .string) { return text }
        return ""
    }

    func optionalText(_ column: Int) -> String? { isNull(column) ? nil : text(column) }
    func optionalData(_ column: Int) -> Data? { isNull(column) ? nil : data(column) }

    /// A `.timestamp` column in milliseconds since 1970; nil for NULL.
    func milliseconds(_ column: Int) -> Int64? {
        if case .date(let milliseconds) = attributeValue(column, .date) { return milliseconds }
        return nil
    }

    func optionalDate(_ column: Int) -> Date? { milliseconds(column).map { Date(timeIntervalSince1970: Double($0) / 1000) } }
    func date(_ column: Int) -> Date { optionalDate(column) ?? Date(timeIntervalSince1970: 0) }
}
