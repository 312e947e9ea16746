import ClonerModel
import Foundation

/// The store's operations inside one transaction of `IncrementalStore.read` or `.write`.
/// Not `Sendable`: it wraps a connection that belongs to the calling thread for the duration.
public struct StoreContext {
    public let connection: SQLiteConnection
    public let schema: StoreSchema

    init(connection: SQLiteConnection, schema: StoreSchema) {
        self.connection = connection
        self.schema = schema
    }

    public var model: DataModel { schema.model }

    func entity(_ name: String) -> EntityDescription {
        guard let entity = model.entity(named: name) else { preconditionFailure("unknown entity \(name)") }
        return entity
    }

    /// A JSON array of ids, bound as one parameter and expanded with `json_each`, so a batch of any
    /// size is one statement with one cached plan.
    static func idArray<S: Sequence>(_ ids: S) -> SQLValue where S.Element == Int64 {
        .text("[" + ids.map(String.init).joined(separator: ",") + "]")
    }

    static let idsFromArray = "SELECT value FROM json_each(?)"

    /// Maps SQLite's constraint errors to what they mean in the model.
    public static func translate(_ error: any Error, schema: StoreSchema) -> any Error {
        guard let error = error as? SQLiteError else { return error }
        if error.isUniqueViolation, let range = error.message.range(of: "failed: ") {
            // SQLite names every column of the index as "Table.column", comma-separated; more than
            // one is a `uniqueTogether` group.
            let columns = error.message[range.upperBound...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1).map(String.init)
            }
            if columns.count == 1, columns[0].count == 2 { return StoreError.uniqueViolation(entity: columns[0][0], attribute: columns[0][1]) }
            if columns.count > 1, columns.allSatisfy({ $0.count == 2 && $0[0] == columns[0][0] }) {
                return StoreError.uniqueTogetherViolation(entity: columns[0][0], attributes: columns.map { $0[1] })
            }
        }
        return StoreError.sqlite(error)
    }
}
