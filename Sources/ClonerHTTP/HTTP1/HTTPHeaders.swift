/// Header fields in the order they arrived (or were added), looked up case-insensitively.
///
/// A flat array, not a dictionary: requests carry a handful of fields, a linear scan over them
/// beats hashing, order is kept for proxies and debugging, and repeated fields stay distinct
/// (RFC 9110 §5.3 lets a recipient combine them, but `Set-Cookie` must not be).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        for field in fields where field.name.equalsASCIICaseInsensitive(name) { return field.value }
        return nil
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.equalsASCIICaseInsensitive(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing one of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of `name` with one (appended where the first one was, or at the end).
    public mutating func set(_ name: String, _ value: String) {
        if let first = fields.firstIndex(where: { $0.name.equalsASCIICaseInsensitive(name) }) {
            fields[first].value = value
            var index = fields.count - 1
            while index > first {
                if fields[index].name.equalsASCIICaseInsensitive(name) { fields.remove(at: index) }
                index -= 1
            }
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsASCIICaseInsensitive(name) }
    }

    /// True when a comma-separated list field (`Connection`, `Transfer-Encoding`) holds `token`,
    /// compared case-insensitively (RFC 9110 §5.6.1 lists, §7.6.1 connection options).
    public func containsToken(_ token: String, in name: String) -> Bool {
        for field in fields where field.name.equalsASCIICaseInsensitive(name) {
            for element in field.value.split(separator: ",") {
                if element.trimmingOWS().equalsASCIICaseInsensitive(token) { return true }
            }
        }
        return false
    }
}
