import ClonerModel
import ClonerStore
import Foundation

/// The `cursor` of a list's `next` link (docs/architecture.md#routes): a position in the list's order — the sort
/// keys' values of the page's last record and its `_id` — not the record itself, so the link keeps
/// working when that record is deleted, and a page continues exactly after it whatever was written
/// in between.
///
/// Opaque to clients: base64url (RFC 4648 §5, no padding) of a small JSON object
/// `{"o":"name,-createDate","k":[...]}`; `o` is the order it belongs to (a cursor used with another
/// order would land at a meaningless place, so that is a 422), `k` the values: JSON null, integers
/// and strings as themselves, a double as `{"r":1.5}`, a blob as `{"b":"<base64>"}`.
struct ListCursor {
    var order: String
    var position: FetchRequest.Position

    /// The `order` parameter's canonical text for a sort: `name,-createDate`.
    static func orderText(_ sort: [FetchRequest.Sort]) -> String {
        sort.map { ($0.ascending ? "" : "-") + $0.key }.joined(separator: ",")
    }

    var encoded: String {
        var writer = JSONWriter(capacity: 64)
        writer.beginObject()
        writer.key("o"); writer.string(order)
        writer.key("k")
        writer.beginArray()
        for value in position.values {
            switch value {
            case .null: writer.null()
            case .integer(let number): writer.integer(number)
            case .double(let number):
                writer.beginObject(); writer.key("r"); writer.double(number); writer.endObject()
            case .text(let text): writer.string(text)
            case .blob(let data):
                writer.beginObject(); writer.key("b"); writer.string(data.base64EncodedString()); writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
        // base64url without padding (RFC 4648 §5), mapped byte by byte from base64.
        var text: [UInt8] = []
        let base64 = Data(writer.bytes).base64EncodedString()
        text.reserveCapacity(base64.utf8.count)
        for byte in base64.utf8 {
            switch byte {
            case UInt8(ascii: "+"): text.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): text.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads a `cursor` parameter for a request ordered by `sort`; every fault is a 422 naming
    /// `cursor`.
    static func decode(_ text: String, sort: [FetchRequest.Sort]) throws(FieldError) -> ListCursor {
        func refuse(_ why: String) -> FieldError {
            FieldError(field: "cursor", message: "\(why); use the next link of the previous page as given")
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard !text.contains("="), !text.contains("+"), !text.contains("/"), let data = Data(base64Encoded: base64),
            let json = try? JSONValue(parsing: Array(data)),
            case .object(let members) = json, case .string(let order)? = members["o"], case .array(let keys)? = members["k"]
        else { throw refuse("not a cursor of this service") }
        let expected = orderText(sort)
        guard order == expected else {
            throw refuse("this cursor belongs to order=\(order.isEmpty ? "_id" : order), not \(expected.isEmpty ? "_id" : expected)")
        }
        var values: [FetchRequest.Position.Value] = []
        for key in keys {
            switch key {
            case .null: values.append(.null)
            case .integer(let number): values.append(.integer(number))
            case .string(let text): values.append(.text(text))
            case .object(let wrapped) where wrapped.count == 1:
                if case .double(let number)? = wrapped["r"] {
                    values.append(.double(number))
                } else if case .integer(let number)? = wrapped["r"] {
                    values.append(.double(Double(number)))
                } else if case .string(let encoded)? = wrapped["b"], let blob = Data(base64Encoded: encoded) {
                    values.append(.blob(blob))
                } else {
                    throw refuse("not a cursor of this service")
                }
            default:
                throw refuse("not a cursor of this service")
            }
        }
        guard values.count == sort.count + 1, case .integer? = values.last else { throw refuse("not a cursor of this service") }
        return ListCursor(order: order, position: FetchRequest.Position(values: values))
    }
}
