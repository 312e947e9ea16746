/// A failure of the test client or of the harness, with what it was doing.
struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
