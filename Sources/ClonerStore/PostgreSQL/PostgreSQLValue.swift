import Foundation

/// A statement parameter or column value, in the PostgreSQL types the store maps the model onto
/// (docs/architecture.md#postgresql: `int8`, `float8`, `boolean`, `timestamptz` at millisecond precision, `uuid`,
/// `bytea`, `json` as text kept exactly, plus `text`).
///
/// Every case is sent in binary format: it keeps doubles bit-exact
/// (-0.0, subnormals, NaN), bytea free of hex escaping (an 8 MiB blob crosses the wire once, as
/// is), and text length-delimited, so a NUL byte reaches the server — which refuses it with
/// SQLSTATE 22021 — instead of silently truncating the string as a C-string text parameter would.
package enum PostgreSQLValue: Sendable, Hashable {
    case null
    case int8(Int64)
    case float8(Double)
    case bool(Bool)
    /// UTF-8 text. PostgreSQL text cannot hold U+0000: such a value fails with
    /// `.characterNotInRepertoire` (22021), so the store must refuse it up front with an error
    /// naming the attribute.
    case text(String)
    case bytea(Data)
    /// Milliseconds since 1970-01-01T00:00:00Z, as `AttributeValue.date` holds it.
    case timestamptz(millisecondsSince1970: Int64)
    case uuid(UUID)
    /// A `numeric`, as the canonical text of `ExactDecimal` (sent and read in numeric's binary
    /// form, `PostgreSQLNumeric`): a decimal attribute's value, digit for digit.
    case numeric(String)
    /// JSON text, stored in a `json` (not `jsonb`) column so whitespace, key order and duplicate
    /// keys come back exactly as written.
    case json(String)
    /// An `int8[]`, for set-based statements over many rows in one call
    /// (`WHERE _id = ANY($1)`, `unnest($1::int8[])`) instead of one statement per object.
    case int8Array([Int64])
    /// A `text[]`, for the same set-based statements over text keys.
    case textArray([String])
    /// A one-dimensional array of `element` values, NULLs allowed: one parameter per column for a
    /// multi-row `INSERT … SELECT * FROM unnest($1::int8[], $2::text[], …)`, so a batch of any
    /// size is one statement with one cached plan. Every non-null element must be of the
    /// element type's case (a precondition).
    case array(element: ArrayElement, [PostgreSQLValue])

    /// The element types `array` carries: the scalar cases above.
    package enum ArrayElement: Sendable, Hashable {
        case int8, float8, bool, text, bytea, timestamptz, uuid, numeric
    }

    package var isNull: Bool { if case .null = self { return true } else { return false } }

    /// About the bytes the value takes on the wire, to size what one statement or pipeline sends.
    var approximateSize: Int {
        switch self {
        case .text(let text), .json(let text), .numeric(let text): text.utf8.count + 4
        case .bytea(let bytes): bytes.count + 4
        case .textArray(let texts): texts.reduce(24) { $0 + $1.utf8.count + 4 }
        case .int8Array(let values): 24 + 12 * values.count
        case .array(_, let values): values.reduce(24) { $0 + $1.approximateSize }
        default: 12
        }
    }
}
