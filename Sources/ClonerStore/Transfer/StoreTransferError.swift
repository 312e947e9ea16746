/// Why a store refused to take a whole-store move.
public enum StoreTransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target already holds rows: a move fills an empty store only, so ids can be kept.
    case notEmpty(table: String)

    public var description: String {
        switch self {
        case let .notEmpty(table):
            return "the store is not empty: \(table) has rows; a whole-store import needs a store with no records"
        }
    }
}
