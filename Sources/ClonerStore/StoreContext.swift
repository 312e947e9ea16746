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
            // SQLite names the column as "Table.column" (the first one, for composite indexes).
            let names = error.message[range.upperBound...].split(separator: ",").first.map(String.init) ?? ""
            let parts = names.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2 { return StoreError.uniqueViolation(entity: parts[0], attribute: parts[1]) }
        }
        return StoreError.sqlite(error)
    }
}
