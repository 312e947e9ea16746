/// The value types an attribute can hold (docs/architecture.md#the-model-file). The raw values are the model-file spelling.
public enum AttributeType: String, Sendable, Hashable, CaseIterable, Codable {
    case string, integer, double, boolean, date, uuid, binary, json
    /// Core Data's Decimal (NSDecimalNumber), kept exactly: never read into a `Double`.
    case decimal
}
