import Foundation

/// A result row as the backend-neutral store SQL reads it: the shared statements return ids,
/// versions, positions and blob keys, so integers, bytes and whether a column is NULL are all
/// it asks for.
protocol SQLRow {
    func isNull(_ column: Int) -> Bool
    func int64(_ column: Int) -> Int64
    func data(_ column: Int) -> Data
}

extension SQLRow {
    func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
}
