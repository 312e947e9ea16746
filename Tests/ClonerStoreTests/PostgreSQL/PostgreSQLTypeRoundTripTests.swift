@testable import ClonerStore
import Foundation
import Testing

/// Every value type through the binary wire format and back, at its edges — and through the
/// server's own text rendering, so an encoding that is wrong in both directions still fails.
@Suite(.requiresPostgreSQL)
struct PostgreSQLTypeRoundTripTests {
    @Test func int8AtItsEdges() throws {
        let connection = try PostgreSQLFixtures.connection()
        for value: Int64 in [.min, -1, 0, 1, 42, .max] {
            let row = try connection.cachedQuery("SELECT $1::int8, $1::int8::text", [.int8(value)])[0]
            #expect(row.int64(0) == value)
            #expect(row.string(1) == String(value))
        }
    }

    @Test func float8KeepsEveryBit() throws {
        let connection = try PostgreSQLFixtures.connection()
        let cases: [(Double, String)] = [
            (0.0, "0"), (-0.0, "-0"), (1.5, "1.5"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (.leastNonzeroMagnitude, "5e-324"), (.leastNormalMagnitude, "2.2250738585072014e-308"),
            (-.infinity, "-Infinity"), (.infinity, "Infinity"), (0.1, "0.1"),
        ]
        for (value, text) in cases {
            let row = try connection.cachedQuery("SELECT $1::float8, $1::float8::text", [.float8(value)])[0]
            #expect(row.double(0).bitPattern == value.bitPattern, "\(value)")
            #expect(row.string(1) == text)
        }
        let nan = try connection.query("SELECT $1::float8, $1::float8::text", [.float8(.nan)])[0]
        #expect(nan.double(0).isNaN)
        #expect(nan.string(1) == "NaN")
    }

    @Test func boolBothWays() throws {
        let connection = try PostgreSQLFixtures.connection()
        for value in [true, false] {
            let row = try connection.query("SELECT $1::bool, $1::bool::text", [.bool(value)])[0]
            #expect(row.bool(0) == value)
            #expect(row.string(1) == String(value))
        }
    }

    @Test func textKeepsFourByteUTF8AndEmptiness() throws {
        let connection = try PostgreSQLFixtures.connection()
        for value in ["", "café", "👩‍👩‍👧‍👦 𝄞 ∑ 中文", String(repeating: "🙂", count: 10_000), "quote ' and \\ backslash"] {
            let row = try connection.query(
                "SELECT $1::text, length($1::text), octet_length($1::text), $1::text IS NULL",
                [.text(value)])[0]
            #expect(row.string(0) == value)
            #expect(row.int64(1) == Int64(value.unicodeScalars.count))
            #expect(row.int64(2) == Int64(value.utf8.count))
            #expect(row.bool(3) == false)
        }
    }

    /// PostgreSQL text cannot hold U+0000. Sent length-delimited in binary format, the NUL reaches
    /// the server, which refuses it — where a C-string text parameter would silently cut the value.
    @Test func textWithNULIsRefusedNotTruncated() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (v text)")
        #expect {
            try connection.query("INSERT INTO t (v) VALUES ($1)", [.text("before\u{0}after")])
        } throws: { error in
            (error as? PostgreSQLError)?.code == .characterNotInRepertoire
        }
        #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 0)
    }

    @Test func byteaEmptyAndEightMebibytes() throws {
        let connection = try PostgreSQLFixtures.connection()
        let empty = try connection.query("SELECT $1::bytea, octet_length($1::bytea), $1::bytea IS NULL", [.bytea(Data())])[0]
        #expect(empty.data(0) == Data())
        #expect(empty.int64(1) == 0)
        #expect(empty.bool(2) == false)

        var generator = SystemRandomNumberGenerator()
        let big = Data((0..<(8 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try connection.execute("CREATE TABLE blobs (id int8 PRIMARY KEY, content bytea NOT NULL)")
        try connection.cachedQuery("INSERT INTO blobs (id, content) VALUES ($1, $2)", [.int8(1), .bytea(big)])
        let row = try connection.cachedQuery(
            "SELECT content, octet_length(content), get_byte(content, 0), get_byte(content, $2::int4) FROM blobs WHERE id = $1",
            [.int8(1), .int8(Int64(big.count - 1))])[0]
        #expect(row.int64(1) == Int64(big.count))
        #expect(row.int64(2) == Int64(big.first!))
        #expect(row.int64(3) == Int64(big.last!))
        #expect(row.data(0) == big)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000"),
        (-1, "1969-12-31T23:59:59.999"),
        (-86_400_001, "1969-12-30T23:59:59.999"),
        (1_700_000_000_123, "2023-11-14T22:13:20.123"),
        (946_684_800_000, "2000-01-01T00:00:00.000"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999"),
    ])
    func timestamptzAtMillisecondPrecision(milliseconds: Int64, utc: String) throws {
        let connection = try PostgreSQLFixtures.connection()
        let row = try connection.cachedQuery(
            #"SELECT $1::timestamptz, to_char($1::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS')"#,
            [.timestamptz(millisecondsSince1970: milliseconds)])[0]
        #expect(row.timestampMilliseconds(0) == milliseconds)
        #expect(row.string(1) == utc)
    }

    @Test func timestampReadsFloorSubMillisecondsAndRefusesOutOfRange() throws {
        let connection = try PostgreSQLFixtures.connection()
        let row = try connection.query("SELECT '1969-12-31 23:59:59.9995+00'::timestamptz, '1970-01-01 00:00:00.0015+00'::timestamptz")[0]
        #expect(row.timestampMilliseconds(0) == -1)
        #expect(row.timestampMilliseconds(1) == 1)
        #expect {
            try connection.query("SELECT $1::timestamptz", [.timestamptz(millisecondsSince1970: .max)])
        } throws: { error in
            (error as? PostgreSQLError)?.code == .datetimeFieldOverflow
        }
    }

    @Test func uuidInCanonicalForm() throws {
        let connection = try PostgreSQLFixtures.connection()
        for value in [
            UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
            UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!,
        ] {
            let row = try connection.query("SELECT $1::uuid, $1::uuid::text", [.uuid(value)])[0]
            #expect(row.uuid(0) == value)
            #expect(row.string(1) == value.uuidString.lowercased())
        }
    }

    @Test func jsonTextKeptExactly() throws {
        let connection = try PostgreSQLFixtures.connection()
        let text = "{\"b\": 1,   \"a\" : [1, 2.50, \"x\"],\n \"b\": {\"z\":null}, \"e\": \"\\u00e9\"}"
        try connection.execute("CREATE TABLE docs (id int8 PRIMARY KEY, body json)")
        try connection.cachedQuery("INSERT INTO docs (id, body) VALUES ($1, $2)", [.int8(1), .json(text)])
        let row = try connection.cachedQuery("SELECT body, body::text, body->>'e' FROM docs WHERE id = $1", [.int8(1)])[0]
        #expect(row.json(0) == text)
        #expect(row.string(1) == text)
        #expect(row.string(2) == "é")
        #expect {
            try connection.query("SELECT $1::json", [.json("{not json")])
        } throws: { error in
            (error as? PostgreSQLError)?.code == .invalidTextRepresentation
        }
    }

    @Test func nullOfEveryTypeAndEveryTypeInATable() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute(
            """
            CREATE TABLE everything (i int8, d float8, b boolean, t text, y bytea, ts timestamptz, u uuid, j json)
            """)
        let values: [PostgreSQLValue] = [
            .int8(.min), .float8(-0.0), .bool(true), .text("𝄞"), .bytea(Data([0, 255, 0])),
            .timestamptz(millisecondsSince1970: -1), .uuid(UUID()), .json("[ 1 ]"),
        ]
        let insert = "INSERT INTO everything (i, d, b, t, y, ts, u, j) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        try connection.cachedQuery(insert, values)
        try connection.cachedQuery(insert, Array(repeating: .null, count: 8))
        let result = try connection.query("SELECT i, d, b, t, y, ts, u, j FROM everything ORDER BY i NULLS LAST")
        #expect(result.rowCount == 2)
        #expect((0..<8).map { result[0].value($0) } == values)
        #expect((0..<8).allSatisfy { result[1].isNull($0) })
        #expect((0..<8).map { result[1].value($0) } == Array(repeating: .null, count: 8))
        #expect(result[1].optionalInt64(0) == nil)
    }

    @Test func arraysCarryManyKeysInOneParameter() throws {
        let connection = try PostgreSQLFixtures.connection()
        let ids = Array(Int64(1)...10_000) + [.min, .max]
        let row = try connection.query(
            "SELECT cardinality($1::int8[]), (SELECT count(DISTINCT x) FROM unnest($1::int8[]) x)::int8, ($1::int8[])[10002]",
            [.int8Array(ids)])[0]
        #expect(row.int64(0) == Int64(ids.count))
        #expect(row.int64(1) == Int64(ids.count))
        #expect(row.int64(2) == .max)
        let empty = try connection.query("SELECT cardinality($1::int8[])", [.int8Array([])])[0]
        #expect(empty.int64(0) == 0)
        let names = ["a", "", "👩‍👩‍👧‍👦"]
        let text = try connection.query("SELECT array_to_string($1::text[], '|'), cardinality($1::text[])", [.textArray(names)])[0]
        #expect(text.string(0) == names.joined(separator: "|"))
        #expect(text.int64(1) == 3)
    }

    @Test func preparedStatementsAreCachedBySQLAndTypes() throws {
        let connection = try PostgreSQLFixtures.connection()
        for value: Int64 in 1...5 {
            #expect(try connection.cachedQuery("SELECT $1::int8 + 1", [.int8(value)])[0].int64(0) == value + 1)
        }
        #expect(connection.cachedStatementCount == 1)
        #expect(try connection.query("SELECT count(*) FROM pg_prepared_statements")[0].int64(0) == 1)
        // A NULL leaves the type to the server: a statement of its own, not a type error.
        #expect(try connection.cachedQuery("SELECT $1::int8 + 1", [.null])[0].isNull(0))
        #expect(connection.cachedStatementCount == 2)
    }
}
