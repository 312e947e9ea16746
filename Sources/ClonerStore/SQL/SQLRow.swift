import ClonerModel
import Foundation

/// A result row as the backend-neutral store SQL reads it: the shared statements return ids,
/// versions, positions and blob keys, so integers, bytes and whether a column is NULL are all
/// it asks for.
protocol SQLRow {
    func isNull(_ column: Int) -> Bool
    func int64(_ column: Int) -> Int64
    func data(_ column: Int) -> Data
    /// A column read as a value of an attribute of `type` (NULL as `.null`).
    func attributeValue(_ column: Int, _ type: AttributeType) -> AttributeValue
}

extension SQLRow {
    func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
}
