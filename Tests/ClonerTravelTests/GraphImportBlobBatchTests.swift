import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// A graph import stores the blobs of a batch of rows together on PostgreSQL (a real test
/// cluster), and each row still names the bytes it was given.
@Suite struct GraphImportBlobBatchTests {
    static let model = GraphImportLineFormsTests.model
    static let header = GraphImportLineFormsTests.header

    /// On PostgreSQL the blobs of a batch of rows are stored together: one statement holds those
    /// the target has already (not one per value), new ones are inserted in one, and every row
    /// names the bytes it was given — blobs new, already there, and twice in the document alike.
    @Test(.enabled(if: PostgreSQLTestCluster.hasStatementStatistics, "needs pg_stat_statements"))
    func theBlobsOfABatchAreStoredTogetherOnPostgreSQL() throws {
        let fixture = try CloneFixture(modelJSON: Self.model, .postgreSQL)
        let bytes = (0..<30).map { Data("blob \($0) ".utf8) + Data(repeating: UInt8($0), count: 100 * $0) }
        // A third of them are on the target already.
        try fixture.insert(bytes[..<10].map { ChangeSet.Insert(entity: "Thing", attributes: ["bin": .binary($0)]) })
        let given = bytes + [bytes[12], bytes[3]]
        var lines = [Self.header, #"{"kind":"object","entity":"Box","ref":1,"parent":null,"attributes":{"name":"box"},"relationships":{}}"#]
        for (index, value) in given.enumerated() {
            lines.append(
                #"{"kind":"object","entity":"Thing","ref":\#(index + 1),"parent":{"entity":"Box","ref":1},"#
                    + #""attributes":{"bin":"\#(value.base64EncodedString())"},"relationships":{"box":1}}"#)
        }
        lines.append(#"{"kind":"end","objects":\#(given.count + 1),"references":0}"#)

        let statistics = try PostgreSQLConnection(uri: fixture.database!.uri(password: nil, database: "postgres"))
        try statistics.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        let database = fixture.database!.name.replacingOccurrences(of: "'", with: "''")
        func calls(_ pattern: String) throws -> Int64 {
            try statistics.query(
                """
                SELECT coalesce(sum(s.calls), 0)::int8 FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid \
                WHERE d.datname = '\(database)' AND s.query LIKE '\(pattern)'
                """)[0].int64(0)
        }
        let lockPattern = "%_cloner_blobs%FOR KEY SHARE%", insertPattern = "INSERT INTO \"_cloner_blobs\"%"
        let (locksBefore, insertsBefore) = (try calls(lockPattern), try calls(insertPattern))
        let outcome = try GraphImportLineFormsTests.importing(lines, into: fixture)
        #expect(try calls(lockPattern) - locksBefore <= 1, "statements holding existing blobs")
        #expect(try calls(insertPattern) - insertsBefore <= 1, "statements inserting new blobs")

        let ids = try #require(outcome.result.ids?["Thing"])
        for (index, value) in given.enumerated() {
            #expect(try fixture.object("Thing", try #require(ids[Int64(index + 1)])).attributes["bin"] == .binary(value), "thing \(index + 1)")
        }
        let blobs = try PostgreSQLConnection(uri: fixture.database!.uri).query("SELECT count(*) FROM \"_cloner_blobs\"")[0].int64(0)
        #expect(blobs == 30, "each content stored once")
    }
}
