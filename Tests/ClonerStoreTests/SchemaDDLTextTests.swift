import ClonerModel
@testable import ClonerStore
import Foundation
import Testing

/// The DDL text each backend writes, pinned byte for byte: a store records its schema and later
/// versions migrate from it, so a change in how the same model is written is a change to every
/// stored database, never a refactoring. The expected text lives in `Tests/Fixtures/DDL`; set
/// `CLONER_RECORD_DDL=1` to write it again after an intended change (and review the diff).
@Suite struct SchemaDDLTextTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/DDL")
    static let sampleModelURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/model.json")

    /// Every attribute type with a default, a unique attribute, a `uniqueTogether` group, an
    /// unordered and an ordered many-to-many, and names past PostgreSQL's identifier limit.
    static func everyShapeModel() -> DataModel {
        let long = String(repeating: "L", count: 60)
        return DataModel(entities: [
            EntityDescription(
                name: "Shape",
                attributes: [
                    AttributeDescription(name: "text", type: .string, defaultValue: .string("it's")),
                    AttributeDescription(name: "count", type: .integer, defaultValue: .integer(-3)),
                    AttributeDescription(name: "ratio", type: .double, defaultValue: .double(0.25)),
                    AttributeDescription(name: "flag", type: .boolean, defaultValue: .boolean(true)),
                    AttributeDescription(name: "when", type: .date, defaultValue: .date(millisecondsSince1970: 1_700_000_000_123)),
                    AttributeDescription(name: "key", type: .uuid, defaultValue: .uuid(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!)),
                    AttributeDescription(name: "bytes", type: .binary, defaultValue: .binary(Data([0, 1, 0xfe]))),
                    AttributeDescription(name: "doc", type: .json, isOptional: true),
                    AttributeDescription(name: "price", type: .decimal, defaultValue: .decimal(try! ExactDecimal(parsing: "-12.50"))),
                    AttributeDescription(name: "serial", type: .decimal, isOptional: true, isUnique: true),
                    AttributeDescription(name: "code", type: .string, isUnique: true),
                    AttributeDescription(name: long + "x", type: .string, isUnique: true),
                ],
                relationships: [
                    RelationshipDescription(name: "parts", destination: "Part", isToMany: true, inverseName: "shapes"),
                    RelationshipDescription(name: "steps", destination: "Part", isToMany: true, isOrdered: true),
                    RelationshipDescription(name: long + "y", destination: "Part"),
                ],
                uniqueTogether: [["text", "count"]]),
            EntityDescription(
                name: "Part",
                attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "shapes", destination: "Shape", isToMany: true, inverseName: "parts")]),
        ])
    }

    static func models() throws -> [(name: String, model: DataModel)] {
        [
            ("sample", try ModelLoader.load(contentsOf: sampleModelURL)),
            ("notes", StoreFixtures.notesModel()),
            ("every-shape", everyShapeModel()),
        ]
    }

    /// Migration steps from the notes model to one that adds attributes of every kind, an entity
    /// and relationships (a reference column and a join table) to the existing ones.
    static func migrationSteps(postgreSQL: Bool) throws -> [SchemaMigrationStep] {
        let old = StoreFixtures.notesModel()
        let added = everyShapeModel().entity(named: "Shape")!.attributes.map { attribute in
            var added = attribute
            added.isOptional = attribute.defaultValue == nil
            return added
        }
        var new = StoreFixtures.notesModel(extraNoteAttributes: added)
        var entities = new.entities
        let part = everyShapeModel().entity(named: "Part")!
        entities.append(EntityDescription(name: "Part", attributes: part.attributes))
        let card = entities.firstIndex { $0.name == "Card" }!
        entities[card] = EntityDescription(
            name: "Card", attributes: entities[card].attributes,
            relationships: entities[card].relationships + [
                RelationshipDescription(name: "part", destination: "Part"),
                RelationshipDescription(name: "parts", destination: "Part", isToMany: true, isOrdered: true),
            ])
        new = DataModel(entities: entities)
        let snapshot = SchemaSnapshot(model: old)
        return postgreSQL
            ? SchemaMigrator<PostgreSQLDialect>(old: snapshot, new: new).plan().steps : SchemaMigrator<SQLiteDialect>(old: snapshot, new: new).plan().steps
    }

    static func text(postgreSQL: Bool) throws -> String {
        var out = ""
        for (name, model) in try models() {
            let schema = StoreSchema(model: model)
            out += "-- model \(name)\n"
            let statements = postgreSQL ? PostgreSQLDialect.createStatements(for: schema) : SQLiteDialect.createStatements(for: schema)
            for statement in statements { out += statement + ";\n" }
        }
        out += "-- migration notes -> notes with more\n"
        for step in try migrationSteps(postgreSQL: postgreSQL) {
            switch step {
            case .sql(let sql): out += sql + ";\n"
            case .createUniqueIndex(let entity, let attribute):
                out +=
                    (postgreSQL
                        ? PostgreSQLDialect.uniqueIndexStatement(entity: entity, attribute: attribute)
                        : SQLiteDialect.uniqueIndexStatement(entity: entity, attribute: attribute)) + ";\n"
            case .createUniqueTogetherIndex(let entity, let attributes):
                out +=
                    (postgreSQL
                        ? PostgreSQLDialect.uniqueTogetherIndexStatement(entity: entity, attributes: attributes)
                        : SQLiteDialect.uniqueTogetherIndexStatement(entity: entity, attributes: attributes)) + ";\n"
            case .requireNoNulls, .renameLineage, .requireOneIDSpace: out += "-- \(step)\n"
            }
        }
        out += "-- bookkeeping\n"
        let bookkeeping =
            postgreSQL
            ? [PostgreSQLDialect.metadataTableStatement] + ServiceTables.createStatements(PostgreSQLDialect.self)
            : ServiceTables.createStatements(SQLiteDialect.self)
        for statement in bookkeeping + ServiceTables.indexStatements { out += statement + ";\n" }
        return out
    }

    @Test(arguments: [false, true]) func ddlTextIsUnchanged(_ postgreSQL: Bool) throws {
        let file = Self.fixtures.appendingPathComponent(postgreSQL ? "postgresql.sql" : "sqlite.sql")
        let actual = try Self.text(postgreSQL: postgreSQL)
        if ProcessInfo.processInfo.environment["CLONER_RECORD_DDL"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "DDL text differs from \(file.path)")
    }
}
