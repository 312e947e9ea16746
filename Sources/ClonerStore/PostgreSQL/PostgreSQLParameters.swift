import CLibPQ
import Foundation

/// Statement parameters encoded in PostgreSQL's binary wire formats into one contiguous buffer,
/// with the four parallel arrays `PQexecParams`/`PQexecPrepared` take.
struct PostgreSQLParameters {
    private(set) var types: [Oid] = []
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var bytes: [UInt8] = []

    /// The offset from the Unix epoch to PostgreSQL's epoch (2000-01-01T00:00:00Z), in milliseconds.
    static let postgresEpochMilliseconds: Int64 = 946_684_800_000

    init(_ values: [PostgreSQLValue]) throws(PostgreSQLError) {
        types.reserveCapacity(values.count)
        offsets.reserveCapacity(values.count)
        lengths.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            try append(value, position: index + 1)
        }
        // A non-empty buffer, so an empty value (a zero-length bytea) still gets a non-null
        // pointer: a null pointer would mean SQL NULL.
        bytes.append(0)
    }

    var count: Int { types.count }

    private mutating func append(_ value: PostgreSQLValue, position: Int) throws(PostgreSQLError) {
        let start = bytes.count
        var isNull = false
        switch value {
        case .null:
            types.append(PostgreSQLTypeOID.unspecified)
            isNull = true
        case .int8Array(let elements):
            types.append(PostgreSQLTypeOID.int8Array)
            appendArrayHeader(count: elements.count, elementType: PostgreSQLTypeOID.int8)
            for element in elements {
                appendBigEndian(UInt32(8))
                appendBigEndian(UInt64(bitPattern: element))
            }
        case .textArray(let elements):
            types.append(PostgreSQLTypeOID.textArray)
            appendArrayHeader(count: elements.count, elementType: PostgreSQLTypeOID.text)
            for element in elements {
                let utf8 = element.utf8
                guard !utf8.contains(0) else {
                    throw PostgreSQLError(
                        kind: .client, code: .characterNotInRepertoire,
                        message: "parameter $\(position): text holds U+0000, which PostgreSQL text cannot store")
                }
                appendBigEndian(UInt32(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        case let .array(element, elements):
            let oids = PostgreSQLTypeOID.oids(of: element)
            types.append(oids.array)
            appendArrayHeader(count: elements.count, elementType: oids.element)
            for item in elements {
                if item.isNull {
                    appendBigEndian(UInt32(bitPattern: -1))
                    continue
                }
                precondition(Self.elementType(of: item) == element, "\(item) in an array of \(element), parameter $\(position)")
                let lengthOffset = bytes.count
                appendBigEndian(UInt32(0))
                try appendScalar(item, position: position)
                let length = UInt32(bytes.count - lengthOffset - 4).bigEndian
                withUnsafeBytes(of: length) { raw in
                    for (offset, byte) in raw.enumerated() { bytes[lengthOffset + offset] = byte }
                }
            }
        default:
            types.append(Self.scalarType(of: value))
            try appendScalar(value, position: position)
        }
        let length = bytes.count - start
        guard length <= Int32.max else {
            throw PostgreSQLError(
                kind: .client, code: .numericValueOutOfRange,
                message: "parameter $\(position) is \(length) bytes, over the protocol's 2 GiB limit")
        }
        offsets.append(start)
        lengths.append(isNull ? -1 : Int32(length))
    }

    private static func scalarType(of value: PostgreSQLValue) -> Oid {
        switch value {
        case .int8: return PostgreSQLTypeOID.int8
        case .float8: return PostgreSQLTypeOID.float8
        case .bool: return PostgreSQLTypeOID.bool
        case .text: return PostgreSQLTypeOID.text
        case .json: return PostgreSQLTypeOID.json
        case .bytea: return PostgreSQLTypeOID.bytea
        case .timestamptz: return PostgreSQLTypeOID.timestamptz
        case .uuid: return PostgreSQLTypeOID.uuid
        case .numeric: return PostgreSQLTypeOID.numeric
        case .null, .int8Array, .textArray, .array: preconditionFailure("\(value) is not a scalar")
        }
    }

    private static func elementType(of value: PostgreSQLValue) -> PostgreSQLValue.ArrayElement? {
        switch value {
        case .int8: return .int8
        case .float8: return .float8
        case .bool: return .bool
        case .text: return .text
        case .bytea: return .bytea
        case .timestamptz: return .timestamptz
        case .uuid: return .uuid
        case .numeric: return .numeric
        default: return nil
        }
    }

    /// The binary form of one scalar value (no length prefix).
    private mutating func appendScalar(_ value: PostgreSQLValue, position: Int) throws(PostgreSQLError) {
        switch value {
        case .int8(let v):
            appendBigEndian(UInt64(bitPattern: v))
        case .float8(let v):
            appendBigEndian(v.bitPattern)
        case .bool(let v):
            bytes.append(v ? 1 : 0)
        case .text(let v), .json(let v):
            // PostgreSQL text cannot hold U+0000 (the server refuses it as 22021). Refused here,
            // before the round trip, so no caller can mistake it for anything but a bad value.
            guard !v.utf8.contains(0) else {
                throw PostgreSQLError(
                    kind: .client, code: .characterNotInRepertoire,
                    message: "parameter $\(position): text holds U+0000, which PostgreSQL text cannot store")
            }
            bytes.append(contentsOf: v.utf8)
        case .bytea(let v):
            bytes.append(contentsOf: v)
        case .timestamptz(let milliseconds):
            let (shifted, overflow1) = milliseconds.subtractingReportingOverflow(Self.postgresEpochMilliseconds)
            let (microseconds, overflow2) = shifted.multipliedReportingOverflow(by: 1000)
            guard !overflow1, !overflow2 else {
                throw PostgreSQLError(
                    kind: .client, code: .datetimeFieldOverflow,
                    message: "parameter $\(position): \(milliseconds) ms since 1970 is outside timestamptz's range")
            }
            appendBigEndian(UInt64(bitPattern: microseconds))
        case .uuid(let v):
            withUnsafeBytes(of: v.uuid) { bytes.append(contentsOf: $0) }
        case .numeric(let text):
            PostgreSQLNumeric.append(text, to: &bytes)
        case .null, .int8Array, .textArray, .array:
            preconditionFailure("\(value) is not a scalar")
        }
    }

    /// The binary array format (`array_recv`): dimensions, has-null flag, element type, then per
    /// dimension its length and lower bound, then each element as length + bytes.
    private mutating func appendArrayHeader(count: Int, elementType: Oid) {
        appendBigEndian(UInt32(count == 0 ? 0 : 1))  // an empty array has zero dimensions
        appendBigEndian(UInt32(0))
        appendBigEndian(UInt32(elementType))
        if count > 0 {
            appendBigEndian(UInt32(count))
            appendBigEndian(UInt32(1))
        }
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with the C arrays libpq takes: types, values (null for SQL NULL), lengths and
    /// formats (all binary). The pointers are valid only inside `body`.
    func withUnsafeArguments<T>(
        _ body: (
            _ types: UnsafePointer<Oid>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
            _ lengths: UnsafePointer<Int32>?, _ formats: UnsafePointer<Int32>?
        ) throws -> T
    ) rethrows -> T {
        let formats = [Int32](repeating: 1, count: count)
        return try bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = (0..<count).map { lengths[$0] < 0 ? nil : base + offsets[$0] }
            return try types.withUnsafeBufferPointer { types in
                try values.withUnsafeBufferPointer { values in
                    try lengths.withUnsafeBufferPointer { lengths in
                        try formats.withUnsafeBufferPointer { formats in
                            try body(types.baseAddress, values.baseAddress, lengths.baseAddress, formats.baseAddress)
                        }
                    }
                }
            }
        }
    }
}
