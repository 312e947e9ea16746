import Foundation

extension PostgreSQLError {
    /// The error in model terms where it has a meaning there: a unique index's constraint name
    /// (SQLSTATE 23505) names its entity and attributes (`layout` knows them); an exhausted pool,
    /// a serialization failure or a deadlock is `busy`; a lost node `unavailable`. Anything else becomes
    /// `StoreError.database` with its SQLSTATE, message and SQL (never a password), so callers
    /// see `StoreError` only, whichever backend runs.
    func storeError(layout: PostgreSQLSchema) -> StoreError {
        if isUniqueViolation, let constraint, let index = layout.uniqueIndexes[constraint] {
            return index.isGroup
                ? StoreError.uniqueTogetherViolation(entity: index.entity, attributes: index.attributes)
                : StoreError.uniqueViolation(entity: index.entity, attribute: index.attributes[0])
        }
        if code == .noSynchronousStandby || code == .synchronousWaitCancelled {
            return StoreError.unavailable(reason: message, outcomeUnknown: outcomeUnknown)
        }
        if isNodeLost {
            // libpq says one line per host it tried: one line here, for a log field or a detail.
            let reason = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
            return StoreError.unavailable(reason: reason, outcomeUnknown: outcomeUnknown)
        }
        if kind == .poolExhausted || isRetryableTransactionFailure {
            return StoreError.busy(waited: .zero)
        }
        return StoreError.database(failure)
    }
}
