import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// On SQLite, reference and blob-key columns are indexed only where they hold a value. The
/// lookups those indexes exist for go by a bound value, in plans a connection keeps for every
/// value: each must still find its index, or every delete rule and inverse read would scan a
/// table. A filter on the reference being NULL, which the index no longer holds, must still find
/// its rows. Both run on both stores.
@Suite struct PartialIndexTests {
    /// Table, column, index and a value of the column's type, per lookup.
    static let lookups: [(table: String, column: String, index: String, value: AttributeValue)] = [
        ("Item", "note", "Item_note_fk", .integer(1)),
        ("Note", "noteDescription", "Note_noteDescription_fk", .integer(1)),
        ("Note", "data", "Note_data_blob", .binary(Data(repeating: 7, count: 32))),
    ]

    @Test(arguments: StoreBackendKind.available) func lookupsByValueUseThePartialIndexes(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        for lookup in Self.lookups {
            let plan = try store.read { context in
                try Self.plan(of: #"SELECT "_id" FROM "\#(lookup.table)" WHERE "\#(lookup.column)" = "#, value: lookup.value, kind: kind, in: context)
            }
            #expect(plan.contains(lookup.index), "\(lookup.table).\(lookup.column): \(plan)")
        }
        // Partial on SQLite only (`SQLDialect.indexesOnlyRowsWithAValue`).
        let definitions = try store.read { context in
            switch kind {
            case .sqlite: try context.rawTexts("SELECT sql FROM sqlite_master WHERE name IN ('Item_note_fk', 'Note_data_blob')")
            case .postgreSQL:
                try context.rawTexts("SELECT indexdef FROM pg_indexes WHERE indexname IN ('Item_note_fk', 'Note_data_blob')")
            }
        }
        #expect(definitions.count == 2)
        for definition in definitions { #expect(definition?.contains("IS NOT NULL") == (kind == .sqlite), "\(definition ?? "nil")") }
    }

    @Test(arguments: StoreBackendKind.available) func aFilterOnANullReferenceStillFindsItsRows(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let note = try store.save(
            ChangeSet(inserts: [.init(entity: "Note", attributes: ["id": .uuid(UUID()), "createDate": .date(millisecondsSince1970: 0)])])
        )
        .insertedIDs[0]
        let ids = try store.save(
            ChangeSet(inserts: [
                .init(entity: "Item", attributes: ["name": .string("held")], relationships: ["note": .toOne(.existing(note))]),
                .init(entity: "Item", attributes: ["name": .string("loose")]),
            ])
        ).insertedIDs
        let loose = try store.read { try $0.fetchIDs(FetchRequest(entity: "Item", predicates: [.init("note", .null)])) }
        let held = try store.read { try $0.fetchIDs(FetchRequest(entity: "Item", predicates: [.init("note", .integer(note))])) }
        #expect(loose == [ids[1]])
        #expect(held == [ids[0]])
    }

    /// The plan of `prefix` followed by one bound parameter. On PostgreSQL, the generic plan a
    /// prepared statement keeps for every value, with sequential scans priced out so that an
    /// index the plan may use is the one it shows.
    static func plan(of prefix: String, value: AttributeValue, kind: StoreBackendKind, in context: any StoreContext) throws -> String {
        switch kind {
        case .sqlite:
            var details: [String] = []
            try context.sqliteConnection.forEachRow("EXPLAIN QUERY PLAN " + prefix + "?1", [value.sqlValue]) { details.append($0.string(3)) }
            return details.joined(separator: "; ")
        case .postgreSQL:
            let type = if case .binary = value { "bytea" } else { "int8" }
            let literal = if case .binary(let bytes) = value { "'\\x" + bytes.map { String(format: "%02x", $0) }.joined() + "'" } else { "1" }
            let connection = (context as! PostgreSQLStoreContext).connection
            try connection.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            try connection.execute("SET LOCAL enable_seqscan = off")
            try connection.execute("PREPARE partial_index_lookup(\(type)) AS " + prefix + "$1")
            defer { try? connection.execute("DEALLOCATE partial_index_lookup") }
            var lines: [String] = []
            try connection.query("EXPLAIN EXECUTE partial_index_lookup(\(literal))").forEachRow { lines.append($0.string(0)) }
            return lines.joined(separator: "; ")
        }
    }
}
