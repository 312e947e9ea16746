import Testing

/// Which backend a parameterised store, clone or service test runs on: the same tests run on
/// both (docs/architecture.md#layers), never copies of them.
package enum StoreBackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL

    /// Whether this backend can run here (PostgreSQL needs the test cluster; under CI=true it
    /// runs and fails instead of skipping).
    package var isAvailable: Bool { self == .sqlite || PostgreSQLTestCluster.isEnabled }

    /// The backends a parameterised test runs on here.
    package static let available = allCases.filter(\.isAvailable)

    /// The name a parameterised test's case shows.
    package var testDescription: String { rawValue }
}
