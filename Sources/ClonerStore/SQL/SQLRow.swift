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
    /// The bytes of a column (binary, or text as UTF-8) where the row holds them, valid only
    /// inside `body`.
    func withBytes(_ column: Int, _ body: (UnsafeRawBufferPointer) -> Void)
    /// A column of a non-binary attribute as an export holds it. By default the attribute's value
    /// (`.other`); a row may copy the common kinds into `batch` without making a value first.
    func graphValue(_ column: Int, type: AttributeType, into batch: GraphRecordBatch) -> GraphRecordBatch.Value
}

extension SQLRow {
    func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }

    func graphValue(_ column: Int, type: AttributeType, into batch: GraphRecordBatch) -> GraphRecordBatch.Value {
        let value = attributeValue(column, type)
        return value == .null ? .null : .other(value)
    }
}
