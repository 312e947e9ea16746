/// The pg_auto_failover formation of a test could not be set up or did not do what it was asked
/// (a node not promoted in time, say): the message says which step and what the formation showed.
package struct AutoFailoverFormationError: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
