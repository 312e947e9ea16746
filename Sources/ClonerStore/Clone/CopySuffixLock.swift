/// The lock that writers of a `rebuild: suffix` attribute take before they read its free numbers
/// (`SQLDialect.transactionLock`), a clone's and an import's alike, so that two transactions
/// never give one value (docs/architecture.md#unique-values-on-copy).
///
/// A transaction takes every such lock it needs at once, in one order (`inLockOrder`), before the
/// first value it numbers: two writers that each held one lock the other then asked for would
/// wait for each other until the database broke the deadlock.
package enum CopySuffixLock {
    /// The lock's name for `attribute` (`Entity.attribute`).
    package static func name(_ attribute: String) -> String { "cloner.copy-suffix.\(attribute)" }

    /// `attributes` (`Entity.attribute`), each once, in the order every writer takes their locks.
    package static func inLockOrder<S: Sequence<String>>(_ attributes: S) -> [String] { Set(attributes).sorted() }
}
