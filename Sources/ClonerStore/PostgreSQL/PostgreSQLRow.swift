import CLibPQ
import Foundation

/// One row of a `PostgreSQLResult`, read by column position from libpq's binary-format buffers.
///
/// Each reader accepts the column types that hold its value losslessly (`int64` reads int2, int4
/// and int8). Reading a column as a type it does not hold — or a NULL through a non-optional
/// reader — is a mistake in the SQL that chose the column, so it is a precondition failure naming
/// the column, its type and the statement; write `::int8`, `::float8` casts in SQL where the server
/// would otherwise pick another type (`count(*)` is int8, `pg_backend_pid()` int4, `sum` numeric).
package struct PostgreSQLRow {
    let result: PostgreSQLResult
    let index: Int32

    package var columnCount: Int { result.columnCount }

    package func isNull(_ column: Int) -> Bool { PQgetisnull(result.handle, index, Int32(column)) == 1 }

    // MARK: - typed readers

    package func int64(_ column: Int) -> Int64 {
        let (type, bytes) = raw(column, "int64")
        switch type {
        case PostgreSQLTypeOID.int8: return Int64(bitPattern: bigEndian(bytes, as: UInt64.self))
        case PostgreSQLTypeOID.int4: return Int64(Int32(bitPattern: bigEndian(bytes, as: UInt32.self)))
        case PostgreSQLTypeOID.int2: return Int64(Int16(bitPattern: bigEndian(bytes, as: UInt16.self)))
        case PostgreSQLTypeOID.oid: return Int64(bigEndian(bytes, as: UInt32.self))
        default: mismatch(column, type, "int64")
        }
    }

    package func double(_ column: Int) -> Double {
        let (type, bytes) = raw(column, "double")
        switch type {
        case PostgreSQLTypeOID.float8: return Double(bitPattern: bigEndian(bytes, as: UInt64.self))
        case PostgreSQLTypeOID.float4: return Double(Float(bitPattern: bigEndian(bytes, as: UInt32.self)))
        default: mismatch(column, type, "double")
        }
    }

    package func bool(_ column: Int) -> Bool {
        let (type, bytes) = raw(column, "bool")
        guard type == PostgreSQLTypeOID.bool else { mismatch(column, type, "bool") }
        return bytes.first != 0
    }

    /// Text of a text-like column (text, varchar, char, name, json), as the UTF-8 the server sent.
    package func string(_ column: Int) -> String {
        let (type, bytes) = raw(column, "string")
        guard PostgreSQLTypeOID.isTextual(type) else { mismatch(column, type, "string") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A json column's text exactly as stored (`json` keeps whitespace and key order; `jsonb`'s
    /// binary form is refused — cast it with `::json` or `::text`).
    package func json(_ column: Int) -> String { string(column) }

    package func data(_ column: Int) -> Data {
        let (type, bytes) = raw(column, "data")
        guard type == PostgreSQLTypeOID.bytea else { mismatch(column, type, "data") }
        return Data(bytes)
    }

    package func uuid(_ column: Int) -> UUID {
        let (type, bytes) = raw(column, "uuid")
        guard type == PostgreSQLTypeOID.uuid, bytes.count == 16 else { mismatch(column, type, "uuid") }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        return UUID(uuid: value)
    }

    /// Milliseconds since 1970 of a timestamptz (or timestamp, read as UTC). Sub-millisecond digits
    /// written by other clients are floored, so a pre-1970 instant never rounds towards 1970.
    /// `infinity`/`-infinity` clamp to `Int64.max`/`Int64.min` milliseconds.
    package func timestampMilliseconds(_ column: Int) -> Int64 {
        let (type, bytes) = raw(column, "timestampMilliseconds")
        guard type == PostgreSQLTypeOID.timestamptz || type == PostgreSQLTypeOID.timestamp else {
            mismatch(column, type, "timestampMilliseconds")
        }
        let microseconds = Int64(bitPattern: bigEndian(bytes, as: UInt64.self))
        if microseconds == .max { return .max }
        if microseconds == .min { return .min }
        let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1000)
        let floored = remainder < 0 ? quotient - 1 : quotient
        return floored + PostgreSQLParameters.postgresEpochMilliseconds
    }

    /// A `numeric` as the canonical text of `ExactDecimal`; nil for NaN or ±Infinity, which a
    /// decimal cannot hold (only a hand-written row could have one).
    package func numeric(_ column: Int) -> String? {
        let (type, bytes) = raw(column, "numeric")
        guard type == PostgreSQLTypeOID.numeric else { mismatch(column, type, "numeric") }
        return PostgreSQLNumeric.text(bytes)
    }

    // MARK: - optional readers

    package func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
    package func optionalString(_ column: Int) -> String? { isNull(column) ? nil : string(column) }
    package func optionalData(_ column: Int) -> Data? { isNull(column) ? nil : data(column) }

    /// The column as a `PostgreSQLValue`, chosen by its type OID (for generic code and tests; the
    /// store's hot paths call the typed readers).
    package func value(_ column: Int) -> PostgreSQLValue {
        if isNull(column) { return .null }
        switch result.columnType(column) {
        case PostgreSQLTypeOID.int8, PostgreSQLTypeOID.int4, PostgreSQLTypeOID.int2: return .int8(int64(column))
        case PostgreSQLTypeOID.float8, PostgreSQLTypeOID.float4: return .float8(double(column))
        case PostgreSQLTypeOID.bool: return .bool(bool(column))
        case PostgreSQLTypeOID.bytea: return .bytea(data(column))
        case PostgreSQLTypeOID.timestamptz, PostgreSQLTypeOID.timestamp:
            return .timestamptz(millisecondsSince1970: timestampMilliseconds(column))
        case PostgreSQLTypeOID.uuid: return .uuid(uuid(column))
        case PostgreSQLTypeOID.json: return .json(string(column))
        case PostgreSQLTypeOID.numeric: return numeric(column).map(PostgreSQLValue.numeric) ?? .null
        case let type where PostgreSQLTypeOID.isTextual(type): return .text(string(column))
        case let type: mismatch(column, type, "value")
        }
    }

    // MARK: - decoding

    private func raw(_ column: Int, _ reader: String) -> (type: Oid, bytes: UnsafeBufferPointer<UInt8>) {
        precondition(
            column >= 0 && column < result.columnCount,
            "column \(column) of \(result.columnCount) read as \(reader) in: \(result.sql)")
        precondition(
            !isNull(column),
            "NULL in column \(column) (\(result.columnName(column))) read as non-optional \(reader) in: \(result.sql)")
        precondition(
            PQfformat(result.handle, Int32(column)) == 1,
            "column \(column) is in text format; rows come from query/cachedQuery, which ask for binary")
        let length = Int(PQgetlength(result.handle, index, Int32(column)))
        let pointer = UnsafeRawPointer(PQgetvalue(result.handle, index, Int32(column))!)
        return (
            PQftype(result.handle, Int32(column)),
            UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
        )
    }

    private func bigEndian<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as: T.Type) -> T {
        precondition(bytes.count == MemoryLayout<T>.size, "binary value of \(bytes.count) bytes, expected \(MemoryLayout<T>.size)")
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        return T(bigEndian: value)
    }

    private func mismatch(_ column: Int, _ type: Oid, _ reader: String) -> Never {
        preconditionFailure(
            "column \(column) (\(result.columnName(column))) has type OID \(type), which \(reader) cannot read, in: \(result.sql)")
    }
}
