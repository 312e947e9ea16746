/// The test cluster could not be set up: the message says which step failed and its output.
package struct PostgreSQLTestClusterError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
