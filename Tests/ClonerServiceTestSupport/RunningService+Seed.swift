import ClonerTestSupport

extension RunningService {
    /// Adds a note owning `items` items, each with one ItemData, straight into the database with
    /// the sqlite3 shell or psql (thousands of API calls would be slower); returns the note's _id.
    package func seedLargeNote(items: Int, name: String) async throws -> Int {
        let output: String
        switch backend {
        case .sqlite:
            output = try await sql(
                """
                BEGIN IMMEDIATE;
                INSERT INTO Note (id, name, createDate) VALUES ('\(EndToEndFixture.uuid())', '\(name)', 1767323045678);
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(items - 1))
                  INSERT INTO Item (name, note, _pos_note) SELECT 'item ' || i, (SELECT _id FROM Note WHERE name = '\(name)'), i FROM n;
                INSERT INTO ItemData (createDate, value, item)
                  SELECT 1767323045678, _id * 0.5, _id FROM Item WHERE note = (SELECT _id FROM Note WHERE name = '\(name)');
                COMMIT;
                SELECT _id FROM Note WHERE name = '\(name)';
                """)
        case .postgreSQL:
            output = try await sql(
                """
                BEGIN;
                INSERT INTO "Note" (id, name, "createDate") VALUES ('\(EndToEndFixture.uuid())', '\(name)', to_timestamp(1767323045.678));
                INSERT INTO "Item" (name, note, "_pos_note") SELECT 'item ' || i, (SELECT "_id" FROM "Note" WHERE name = '\(name)'), i \
                  FROM generate_series(0, \(items - 1)) i;
                INSERT INTO "ItemData" ("createDate", value, item) SELECT to_timestamp(1767323045.678), "_id" * 0.5, "_id" FROM "Item" \
                  WHERE note = (SELECT "_id" FROM "Note" WHERE name = '\(name)');
                COMMIT;
                SELECT "_id" FROM "Note" WHERE name = '\(name)';
                """)
        }
        guard let id = Int(output) else { throw ClientError("seeding \(name): \(output)") }
        return id
    }
}
