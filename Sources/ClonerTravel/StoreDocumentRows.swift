import ClonerModel
import ClonerStore
import Foundation

/// A row's values in the document's compact form (see `StoreDocument`), both ways, and the
/// running checksum of a section: the same bytes whether the values came from a store or from
/// a document, so an export, an import and a read-back of the target all agree.
///
/// Not `Sendable`: it owns a running digest.
struct StoreDocumentRows {
    private var digest = BlobDigest()
    private(set) var count: Int64 = 0
    private var scratch = GraphLineWriter(capacity: 4096)

    /// Writes `values` as a JSON array into `writer` and adds them to the checksum.
    mutating func append(_ values: [AttributeValue], to writer: inout GraphLineWriter) {
        let start = writer.bytes.count
        Self.encode(values, into: &writer)
        add(writer.bytes[start...])
    }

    /// Adds `values` to the checksum only.
    mutating func add(_ values: [AttributeValue]) {
        scratch.removeAll()
        Self.encode(values, into: &scratch)
        add(scratch.bytes[...])
    }

    private mutating func add(_ bytes: ArraySlice<UInt8>) {
        digest.update(bytes)
        digest.update([UInt8(ascii: "\n")])
        count += 1
    }

    /// The hex checksum of the rows added so far; the object is spent afterwards.
    mutating func finish() -> String { digest.finish().lowercaseHex }

    static func encode(_ values: [AttributeValue], into writer: inout GraphLineWriter) {
        writer.beginArray()
        for value in values {
            switch value {
            case .date(let milliseconds): writer.integer(milliseconds)
            case .double(let number) where !number.isFinite:
                writer.string(number.isNaN ? "NaN" : number > 0 ? "Infinity" : "-Infinity")
            case .uuid(let uuid): writer.string(uuid.uuidString.lowercased())
            case .json(let text): writer.string(text)
            case .binary(let key): writer.string(key.lowercaseHex)
            default: writer.value(value)
            }
        }
        writer.endArray()
    }

    /// The values of a `values` array read from line `line`, typed by `columns`; key columns and
    /// `_version` must hold integers.
    static func decode(_ array: [JSONValue], columns: [TransferColumn], required: Int, line: Int) throws -> [AttributeValue] {
        guard array.count == columns.count else {
            throw StoreDocumentError.badLine(line: line, field: "values", message: "holds \(array.count) values; the table has \(columns.count) columns")
        }
        var values: [AttributeValue] = []
        values.reserveCapacity(array.count)
        for (index, (json, column)) in zip(array, columns).enumerated() {
            let field = "values[\(index)] (\(column.name))"
            func refuse(_ expected: String) -> StoreDocumentError {
                .badLine(line: line, field: field, message: "expected \(expected), found \(json.canonicalText.prefix(40))")
            }
            if case .null = json {
                guard index >= required else { throw StoreDocumentError.badLine(line: line, field: field, message: "must not be null") }
                values.append(.null)
                continue
            }
            switch column.type {
            case .integer:
                guard case .integer(let v) = json else { throw refuse("an integer") }
                values.append(.integer(v))
            case .date:
                guard case .integer(let v) = json, RFC3339Timestamp.representableMilliseconds.contains(v) else {
                    throw refuse("milliseconds since 1970 within years 0000–9999")
                }
                values.append(.date(millisecondsSince1970: v))
            case .double:
                switch json {
                case .double(let v): values.append(.double(v))
                case .integer(let v): values.append(.double(Double(v)))
                case .string("NaN"): values.append(.double(.nan))
                case .string("Infinity"): values.append(.double(.infinity))
                case .string("-Infinity"): values.append(.double(-.infinity))
                default: throw refuse("a number")
                }
            case .boolean:
                guard case .bool(let v) = json else { throw refuse("true or false") }
                values.append(.boolean(v))
            case .string:
                guard case .string(let v) = json else { throw refuse("a string") }
                values.append(.string(v))
            case .json:
                guard case .string(let v) = json else { throw refuse("JSON text as a string") }
                values.append(.json(v))
            case .uuid:
                guard case .string(let v) = json, let uuid = UUID(uuidString: v) else { throw refuse("a uuid") }
                values.append(.uuid(uuid))
            case .binary:
                guard case .string(let v) = json, let key = hexKey(v) else { throw refuse("a blob's key (64 hex digits)") }
                values.append(.binary(key))
            case .decimal:
                guard case .string(let v) = json, let decimal = try? ExactDecimal(parsing: v) else { throw refuse("a decimal's digits as a string") }
                values.append(.decimal(decimal))
            }
        }
        return values
    }

    /// A blob key from its 64 lower- or upper-case hex digits.
    static func hexKey(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count == BlobDigest.length * 2 else { return nil }
        var bytes = Data(capacity: BlobDigest.length)
        var index = 0
        while index < digits.count {
            guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
