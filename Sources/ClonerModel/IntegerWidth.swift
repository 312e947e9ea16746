/// How many bits an integer attribute holds (Core Data's Integer 16, 32 and 64). The store keeps
/// every integer in a 64-bit column, so the width is what keeps a value the app could not hold
/// (100,000 in an Integer 16) out of the store: a record, a clone `set`, an imported graph or a
/// model default outside the range is refused, never truncated.
public enum IntegerWidth: Int, Sendable, Hashable, CaseIterable {
    case bits16 = 16
    case bits32 = 32
    case bits64 = 64

    /// The values a signed integer of this width holds.
    public var range: ClosedRange<Int64> {
        switch self {
        case .bits16: return Int64(Int16.min)...Int64(Int16.max)
        case .bits32: return Int64(Int32.min)...Int64(Int32.max)
        case .bits64: return Int64.min...Int64.max
        }
    }

    /// Why `value` does not fit, in Core Data's name for the type, or nil when it fits.
    public func problem(with value: Int64) -> String? {
        guard !range.contains(value) else { return nil }
        return "\(value) is outside Integer \(rawValue)'s range \(range.lowerBound)…\(range.upperBound)"
    }
}
