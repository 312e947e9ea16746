import CLibPQ

/// The built-in type OIDs this wrapper sends and reads (`pg_type.oid`; fixed since the types were
/// added, listed in `src/include/catalog/pg_type.dat`).
enum PostgreSQLTypeOID {
    static let unspecified: Oid = 0
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let name: Oid = 19
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let oid: Oid = 26
    static let json: Oid = 114
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let unknown: Oid = 705
    static let textArray: Oid = 1009
    static let int8Array: Oid = 1016
    static let bpchar: Oid = 1042
    static let varchar: Oid = 1043
    static let timestamp: Oid = 1114
    static let timestamptz: Oid = 1184
    static let uuid: Oid = 2950
    static let jsonb: Oid = 3802
    static let boolArray: Oid = 1000
    static let byteaArray: Oid = 1001
    static let float8Array: Oid = 1022
    static let timestamptzArray: Oid = 1185
    static let uuidArray: Oid = 2951
    static let numeric: Oid = 1700
    static let numericArray: Oid = 1231

    /// The element and array OIDs of an `array` parameter's element type.
    static func oids(of element: PostgreSQLValue.ArrayElement) -> (element: Oid, array: Oid) {
        switch element {
        case .int8: return (int8, int8Array)
        case .float8: return (float8, float8Array)
        case .bool: return (bool, boolArray)
        case .text: return (text, textArray)
        case .bytea: return (bytea, byteaArray)
        case .timestamptz: return (timestamptz, timestamptzArray)
        case .uuid: return (uuid, uuidArray)
        case .numeric: return (numeric, numericArray)
        }
    }

    static func isTextual(_ oid: Oid) -> Bool {
        oid == text || oid == varchar || oid == bpchar || oid == name || oid == json || oid == unknown
    }
}
