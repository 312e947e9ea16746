import CLibPQ
import Foundation

/// The rows (or command status) of one statement, owning libpq's `PGresult`.
///
/// Rows are read by column position straight from libpq's buffers through `PostgreSQLRow`: no
/// dictionary or array is built per row. Not `Sendable`: it belongs to the caller that ran the
/// statement, like the connection.
package final class PostgreSQLResult {
    let handle: OpaquePointer
    /// The statement, for the messages of decoding preconditions.
    let sql: String

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { PQclear(handle) }

    package var rowCount: Int { Int(PQntuples(handle)) }
    package var columnCount: Int { Int(PQnfields(handle)) }

    package func columnName(_ column: Int) -> String { String(cString: PQfname(handle, Int32(column))) }

    /// The column's type OID, for callers that decode by type (`PostgreSQLRow.value(_:)`).
    package func columnType(_ column: Int) -> UInt32 { PQftype(handle, Int32(column)) }

    /// Rows inserted, updated, deleted, selected… as the command tag reports (`PQcmdTuples`);
    /// 0 for commands without a count.
    package var affectedRows: Int {
        Int(String(cString: PQcmdTuples(handle))) ?? 0
    }

    package subscript(_ row: Int) -> PostgreSQLRow {
        precondition(row >= 0 && row < rowCount, "row \(row) of \(rowCount) in: \(sql)")
        return PostgreSQLRow(result: self, index: Int32(row))
    }

    /// Calls `body` with each row in order.
    package func forEachRow(_ body: (PostgreSQLRow) throws -> Void) rethrows {
        let count = PQntuples(handle)
        var index: Int32 = 0
        while index < count {
            try body(PostgreSQLRow(result: self, index: index))
            index += 1
        }
    }
}
