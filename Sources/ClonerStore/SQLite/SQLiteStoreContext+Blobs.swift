import ClonerModel
import Foundation

/// A value as SQLite stores it (the blob storage itself is written once, `SQLStoreContext+Blobs`).
extension SQLiteStoreContext {
    /// The value as its column stores it: a binary value by its (stored) blob's key.
    func storedValue(_ value: AttributeValue) throws -> SQLiteValue {
        if case .binary(let bytes) = value { return .blob(try storeBlob(bytes)) }
        return value.sqlValue
    }

    /// SQLite holds every value it is given: the names are for the backends that refuse some.
    func storedValue(_ value: AttributeValue, entity: String, attribute: String) throws -> SQLiteValue {
        try storedValue(value)
    }
}
