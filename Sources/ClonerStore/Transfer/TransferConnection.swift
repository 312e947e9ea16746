import ClonerModel

/// What a backend's context gives a whole-store move: its dialect of the shared statements
/// (`TransferSQL`), rows read into typed values, multi-row inserts, and its id sequences.
/// Both contexts answer it; `StoreTransferReader` and `StoreTransferWriter` are written once over it.
protocol TransferConnection {
    var transferSQL: TransferSQL { get }
    /// Runs `sql` with `parameters` and hands each row to `body` as values of `types`, in order.
    func transferRows(_ sql: String, _ parameters: [AttributeValue], types: [AttributeType], _ body: ([AttributeValue]) throws -> Void) throws
    /// Inserts `rows` (values in `columns` order) into `table` with as few multi-row statements
    /// as the backend's limits allow.
    func transferInsert(table: String, columns: [TransferColumn], rows: [[AttributeValue]]) throws
    /// The highest `_id` the entity's table ever issued: its sequence's position or its largest
    /// row, whichever is higher (rows deleted at the end leave the sequence ahead).
    func highestIssuedID(entity: String) throws -> Int64
    /// Moves the entity's sequence so the next `_id` it issues is above `id`.
    func issueIDs(above id: Int64, entity: String) throws
}

extension StoreContext {
    var transferConnection: any TransferConnection {
        guard let connection = self as? any TransferConnection else {
            preconditionFailure("\(type(of: self)) cannot take part in a whole-store move")
        }
        return connection
    }
}
