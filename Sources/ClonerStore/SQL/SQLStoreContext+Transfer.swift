import ClonerModel
import Foundation

/// A whole-store move's reads and writes (`StoreTransferReader`, `StoreTransferWriter`), written
/// once: the statements are `TransferStatement`'s in the backend's dialect, the inserts
/// `insertRows`' batches with the rows' own `_id`s.
extension SQLStoreContext {
    /// Runs `statement` with `parameters` and hands each row to `body` as values of `types`, in order.
    func transferRows(
        _ statement: TransferStatement, _ parameters: [AttributeValue], types: [AttributeType], _ body: ([AttributeValue]) throws -> Void
    ) throws {
        let values = try parameters.map { try Self.boundValue($0, entity: "", attribute: "") }
        var row = [AttributeValue](repeating: .null, count: types.count)
        try forEachRow(statement.sql(Dialect.self), values: values) { read in
            for index in types.indices { row[index] = read.attributeValue(index, types[index]) }
            try body(row)
        }
    }

    /// Inserts `rows` (values in `columns` order) into `table`, a value the backend cannot hold
    /// refused naming its row by key ("Note 42", "_rel_Memo_tags (3, 7)") and its column.
    func transferInsert(table: String, columns: [TransferColumn], rows: [[AttributeValue]]) throws {
        var bound: [[Connection.Value]] = []
        bound.reserveCapacity(rows.count)
        for row in rows {
            precondition(row.count == columns.count, "a row of \(row.count) values for \(columns.count) columns of \(table)")
            var values: [Connection.Value] = []
            values.reserveCapacity(columns.count)
            for (index, value) in row.enumerated() {
                do {
                    values.append(try Self.boundValue(value, entity: table, attribute: columns[index].name))
                } catch StoreError.invalidValue(_, let property, let reason) {
                    throw StoreError.invalidValue(entity: Self.rowName(table, columns, row), property: property, reason: reason)
                }
            }
            bound.append(values)
        }
        try insertRows(into: table, columns: columns.map { ($0.name, $0.type) }, rows: bound, skippingDuplicates: false)
    }

    /// The row a refused value belongs to, by its key: its `_id`, or a join row's pair.
    private static func rowName(_ table: String, _ columns: [TransferColumn], _ row: [AttributeValue]) -> String {
        let key = row.prefix(columns.first?.name == "_id" ? 1 : 2).map { value -> String in
            if case .integer(let number) = value { return String(number) }
            return "?"
        }
        return key.count == 1 ? "\(table) \(key[0])" : "\(table) (\(key.joined(separator: ", ")))"
    }
}
