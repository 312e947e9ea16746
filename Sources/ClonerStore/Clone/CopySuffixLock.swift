/// The lock that writers of a `rebuild: suffix` attribute take before they read its free numbers
/// (`SQLDialect.transactionLock`), a clone's and an import's alike, so that two transactions
/// never give one value (docs/architecture.md#unique-values-on-copy).
enum CopySuffixLock {
    /// The lock's name for `attribute` (`Entity.attribute`).
    static func name(_ attribute: String) -> String { "cloner.copy-suffix.\(attribute)" }
}
