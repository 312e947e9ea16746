/// A failure of a test client or of a harness, with what it was doing.
package struct ClientError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
