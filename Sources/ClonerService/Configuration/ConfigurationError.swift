/// A setting that could not be used, naming where it came from (`CLONER_PORT`,
/// `config/cloner.json: http.maxBodyBytes`, `--port`) and the value, so the operator can fix the
/// right layer without guessing which of file, environment or flag won.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The variable, file key or flag.
    public var source: String
    /// The offending value as written, when there is one.
    public var value: String?
    public var message: String

    public init(source: String, value: String? = nil, message: String) {
        self.source = source
        self.value = value
        self.message = message
    }

    public var description: String {
        if let value { return "\(source)=\(value): \(message)" }
        return "\(source): \(message)"
    }
}
