/// One test's database in the shared `PostgreSQLTestCluster`.
package struct PostgreSQLTestDatabase: Sendable {
    package let name: String
    package let socketDirectory: String
    package let port: Int

    /// A libpq URI reaching the database over the cluster's Unix socket as the superuser.
    package var uri: String { uri(password: nil) }

    /// The URI with a password in its user info (the cluster trusts local connections and ignores
    /// it), for tests that check a password never leaks into errors or logs.
    package func uri(password: String?, database: String? = nil) -> String {
        let user = password.map { "postgres:\($0)" } ?? "postgres"
        return "postgresql://\(user)@/\(database ?? name)?host=\(socketDirectory)&port=\(port)"
    }
}
