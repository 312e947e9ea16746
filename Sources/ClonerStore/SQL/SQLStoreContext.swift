import ClonerModel
import Foundation

/// A store context whose operations are SQL on one connection: the statements both backends run
/// alike (relationship edits, deletes) are written once in extensions of this protocol, over the
/// connection's `SQLConnection` calls and its `SQLDialect`, so a rule changes in one place. What
/// truly differs (value types, blobs, inserts, the graph copy's machinery) stays in each
/// backend's own context.
protocol SQLStoreContext: StoreContext, ChangeSetWriter {
    associatedtype Connection: SQLConnection
    var connection: Connection { get }
    /// `value` of `attribute` as its column stores it: a binary value by its blob's key (the
    /// blob stored first); a value the backend cannot hold refused naming the attribute.
    func storedValue(_ value: AttributeValue, entity: String, attribute: String) throws -> Connection.Value
}

extension SQLStoreContext {
    typealias Dialect = Connection.Dialect

    /// Which of `ids` exist in `entity`'s table: one query, however many ids.
    func existingIDs(entity: String, ids: [Int64]) throws -> Set<Int64> {
        var found: Set<Int64> = []
        try connection.forEachRow("SELECT \"_id\" FROM \(quoted(entity)) WHERE \"_id\" \(Dialect.among(1))", arguments: [.ids(ids)]) {
            found.insert($0.int64(0))
        }
        return found
    }

    /// The blob keys the binary `columns` of objects `ids` of `entity` hold: one query per column.
    func blobKeys(entity: String, columns: [String], ids: [Int64]) throws -> Set<Data> {
        // One object (an update) is matched by its key alone, with no list to read.
        let (match, argument): (String, SQLArgument) =
            ids.count == 1 ? ("= \(Dialect.parameter(1))", .integer(ids[0])) : (Dialect.among(1), .ids(ids))
        var keys: Set<Data> = []
        for column in columns {
            try connection.forEachRow(
                "SELECT DISTINCT \(quoted(column)) FROM \(quoted(entity)) WHERE \"_id\" \(match) AND \(quoted(column)) IS NOT NULL",
                arguments: [argument]
            ) { keys.insert($0.data(0)) }
        }
        return keys
    }
}
