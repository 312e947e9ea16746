import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// What apps' model versions remove — entities (with their relationships and join tables),
/// attributes (indexed, binary, all NULL), to-one reference columns, to-many join tables — is
/// dropped when it holds no data, and refused, naming the counts and changing nothing, when it does.
extension MigrationTests {
    enum Removal: String, CaseIterable, CustomTestStringConvertible {
        case emptyEntity, entityWithRelationships, indexedAttribute, binaryAttribute, nullAttribute, toOneColumn, toManyJoinTable
        /// Folder.notes, ordered: Note.folder keeps the links, its position column goes.
        case orderedInverse

        var testDescription: String { rawValue }

        /// The model after the removal.
        var model: DataModel { MigrationTests.removalModel(without: self) }

        /// What is gone once the removal ran: tables, and columns of `Note`.
        var goneTables: [String] {
            switch self {
            case .emptyEntity: return ["Archive"]
            case .entityWithRelationships: return ["Folder", "_rel_Folder_tags"]
            case .toManyJoinTable: return ["_rel_Note_links"]
            default: return []
            }
        }

        var goneNoteColumns: [String] {
            switch self {
            case .entityWithRelationships: return ["folder", "_pos_folder"]
            case .indexedAttribute: return ["legacy"]
            case .binaryAttribute: return ["data"]
            case .nullAttribute: return ["blank"]
            case .toOneColumn: return ["author"]
            case .orderedInverse: return ["_pos_folder"]
            default: return []
            }
        }

        /// The start-up log's lines for the removal.
        var changes: [String] {
            switch self {
            case .emptyEntity: return ["entity Archive removed (its table held no rows)"]
            case .entityWithRelationships:
                return [
                    "Note.folder removed (no row held a link)", "Folder.tags removed (its join table held no links)",
                    "entity Folder removed (its table held no rows)",
                ]
            case .indexedAttribute: return ["Note.legacy removed (no row held a value)"]
            case .binaryAttribute: return ["Note.data removed (no row held a value)"]
            case .nullAttribute: return ["Note.blank removed (no row held a value)"]
            case .toOneColumn: return ["Note.author removed (no row held a link)"]
            case .toManyJoinTable: return ["Note.links removed (its join table held no links)"]
            case .orderedInverse: return ["Folder.notes removed (no row held its order; its inverse keeps the links)"]
            }
        }

        /// Data in what is removed, beside the kept note (`_id` 1), and the refusal it causes.
        var data: (inserts: [ChangeSet.Insert], reasons: [String]) {
            let attribute = "attribute was removed (or renamed without originalName), but"
            func note(_ attributes: [String: AttributeValue] = [:], _ relationships: [String: ChangeSet.RelationshipEdit] = [:]) -> ChangeSet.Insert {
                ChangeSet.Insert(entity: "Note", attributes: attributes, relationships: relationships)
            }
            switch self {
            case .emptyEntity:
                return (
                    Array(repeating: ChangeSet.Insert(entity: "Archive", attributes: ["label": .string("old")]), count: 3),
                    ["entity Archive: removed, but its table holds 3 rows"]
                )
            case .entityWithRelationships:
                return (
                    [
                        ChangeSet.Insert(entity: "Tag", attributes: ["label": .string("red")]),
                        ChangeSet.Insert(entity: "Folder", relationships: ["tags": .toMany([.inserted(0)])]),
                        note([:], ["folder": .toOne(.inserted(1))]),
                    ],
                    [
                        "Note.folder: relationship was removed, but 1 row holds a link",
                        "Folder.tags: relationship was removed, but its join table holds 1 link",
                        "entity Folder: removed, but its table holds 1 row",
                    ]
                )
            case .indexedAttribute:
                return ([note(["legacy": .string("a")]), note(["legacy": .string("b")])], ["Note.legacy: \(attribute) 2 rows hold a value"])
            case .binaryAttribute: return ([note(["data": .binary(Data([7, 8]))])], ["Note.data: \(attribute) 1 row holds a value"])
            case .nullAttribute: return ([note(["blank": .integer(12)])], ["Note.blank: \(attribute) 1 row holds a value"])
            case .toOneColumn:
                return (
                    [ChangeSet.Insert(entity: "Person", attributes: ["name": .string("Ada")]), note([:], ["author": .toOne(.inserted(0))])],
                    ["Note.author: relationship was removed, but 1 row holds a link"]
                )
            case .toManyJoinTable:
                return ([note([:], ["links": .toMany([.existing(1)])])], ["Note.links: relationship was removed, but its join table holds 1 link"])
            case .orderedInverse:
                return (
                    [ChangeSet.Insert(entity: "Folder"), note([:], ["folder": .toOne(.inserted(0))])],
                    ["Folder.notes: relationship was removed, but 1 row holds its order (its inverse keeps the links)"]
                )
            }
        }
    }

    /// Notes in folders with tags, by authors, linked to other notes, and archives apart.
    static func removalModel(without removal: Removal? = nil) -> DataModel {
        let removesFolder = removal == .entityWithRelationships
        let noteAttributes = [
            AttributeDescription(name: "title", type: .string, isOptional: true),
            AttributeDescription(name: "legacy", type: .string, isOptional: true, isUnique: true),
            AttributeDescription(name: "blank", type: .integer, isOptional: true),
            AttributeDescription(name: "data", type: .binary, isOptional: true),
        ].filter { attribute in
            switch removal {
            case .indexedAttribute: return attribute.name != "legacy"
            case .binaryAttribute: return attribute.name != "data"
            case .nullAttribute: return attribute.name != "blank"
            default: return true
            }
        }
        let noteRelationships = [
            RelationshipDescription(name: "folder", destination: "Folder", inverseName: removal == .orderedInverse ? nil : "notes"),
            RelationshipDescription(name: "author", destination: "Person"),
            RelationshipDescription(name: "links", destination: "Note", isToMany: true),
        ].filter { relationship in
            !(removesFolder && relationship.name == "folder") && !(removal == .toOneColumn && relationship.name == "author")
                && !(removal == .toManyJoinTable && relationship.name == "links")
        }
        var entities = [
            EntityDescription(name: "Note", attributes: noteAttributes, relationships: noteRelationships),
            EntityDescription(
                name: "Folder", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [
                    RelationshipDescription(name: "notes", destination: "Note", isToMany: true, isOrdered: true, inverseName: "folder"),
                    RelationshipDescription(name: "tags", destination: "Tag", isToMany: true, inverseName: "folders"),
                ].filter { removal != .orderedInverse || $0.name != "notes" }),
            EntityDescription(
                name: "Tag", attributes: [AttributeDescription(name: "label", type: .string, isOptional: true)],
                relationships: removesFolder ? [] : [RelationshipDescription(name: "folders", destination: "Folder", isToMany: true, inverseName: "tags")]),
            EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)]),
            EntityDescription(name: "Archive", attributes: [AttributeDescription(name: "label", type: .string, isOptional: true)]),
        ]
        entities.removeAll { (removesFolder && $0.name == "Folder") || (removal == .emptyEntity && $0.name == "Archive") }
        return DataModel(entities: entities)
    }

    static func tables(_ store: IncrementalStore, _ kind: StoreBackendKind) throws -> Set<String> {
        let sql =
            kind == .postgreSQL
            ? "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
            : "SELECT name FROM sqlite_master WHERE type = 'table'"
        return Set(try store.read { try $0.rawTexts(sql) }.compactMap { $0 })
    }

    static func noteColumns(_ store: IncrementalStore, _ kind: StoreBackendKind) throws -> Set<String> {
        let sql =
            kind == .postgreSQL
            ? "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'Note'"
            : "SELECT name FROM pragma_table_info('Note')"
        return Set(try store.read { try $0.rawTexts(sql) }.compactMap { $0 })
    }

    static func metadata(_ store: IncrementalStore) throws -> [String?] {
        try store.read { try $0.rawTexts("SELECT key || '=' || value FROM \"_cloner_meta\" ORDER BY key") }
    }

    @Test(arguments: StoreBackendKind.available, Removal.allCases)
    func aRemovalThatHoldsNoDataIsDropped(_ kind: StoreBackendKind, _ removal: Removal) throws {
        let place = try StorePlace(kind)
        try place.open(model: Self.removalModel()).save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Note", attributes: ["title": .string("kept")])]))

        let store = try place.open(model: removal.model)
        guard case .migrated(_, _, let changes) = store.preparation else {
            Issue.record("not migrated: \(store.preparation)")
            return
        }
        #expect(Array(changes.prefix(removal.changes.count)) == removal.changes, "\(changes)")
        #expect(try Self.tables(store, kind).isDisjoint(with: removal.goneTables))
        #expect(try Self.noteColumns(store, kind).isDisjoint(with: removal.goneNoteColumns))
        #expect(try store.object("Note", 1)?.attributes["title"] == .string("kept"), "the rest's data is intact")

        let reopened = try place.open(model: removal.model)
        #expect(reopened.preparation == .unchanged)
        let id = try reopened.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Note", attributes: ["title": .string("new")])])).insertedIDs[0]
        #expect(try reopened.object("Note", id)?.attributes["title"] == .string("new"))
    }

    @Test(arguments: StoreBackendKind.available, Removal.allCases)
    func aRemovalThatHoldsDataIsRefusedNamingTheCounts(_ kind: StoreBackendKind, _ removal: Removal) throws {
        let place = try StorePlace(kind)
        let before = try place.open(model: Self.removalModel())
        let kept = ChangeSet.Insert(entity: "Note", attributes: ["title": .string("kept")])
        try before.save(ChangeSet(inserts: [kept]))
        try before.save(ChangeSet(inserts: removal.data.inserts))
        let metadata = try Self.metadata(before), tables = try Self.tables(before, kind), columns = try Self.noteColumns(before, kind)

        #expect {
            _ = try place.open(model: removal.model)
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons == removal.data.reasons
        }
        let after = try place.open(model: Self.removalModel())
        #expect(after.preparation == .unchanged, "the old snapshot is still the store's")
        #expect(try Self.metadata(after) == metadata)
        #expect(try Self.tables(after, kind) == tables)
        #expect(try Self.noteColumns(after, kind) == columns)
        #expect(try after.object("Note", 1)?.attributes["title"] == .string("kept"))
    }

    /// Note.summary holds a one-to-one's links; without Summary.note it keeps them, no longer unique.
    @Test(arguments: StoreBackendKind.available) func removingTheOtherSideOfAOneToOneKeepsTheLinks(_ kind: StoreBackendKind) throws {
        func model(inverse: Bool) -> DataModel {
            DataModel(entities: [
                EntityDescription(
                    name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)],
                    relationships: [RelationshipDescription(name: "summary", destination: "Summary", inverseName: inverse ? "note" : nil)]),
                EntityDescription(
                    name: "Summary", attributes: [AttributeDescription(name: "text", type: .string, isOptional: true)],
                    relationships: inverse ? [RelationshipDescription(name: "note", destination: "Note", inverseName: "summary")] : []),
            ])
        }
        let place = try StorePlace(kind)
        try place.open(model: model(inverse: true)).save(
            ChangeSet(inserts: [
                ChangeSet.Insert(entity: "Summary", attributes: ["text": .string("short")]),
                ChangeSet.Insert(entity: "Note", relationships: ["summary": .toOne(.inserted(0))]),
            ]))
        let store = try place.open(model: model(inverse: false))
        guard case .migrated = store.preparation else {
            Issue.record("not migrated: \(store.preparation)")
            return
        }
        #expect(try store.object("Note", 1)?.relationships["summary"] == .toOne(1))
        // No longer one-to-one: a second note may name the same summary.
        let id = try store.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Note", relationships: ["summary": .toOne(.existing(1))])]))
            .insertedIDs[0]
        #expect(try store.object("Note", id)?.relationships["summary"] == .toOne(1))
        #expect(try place.open(model: model(inverse: false)).preparation == .unchanged)
    }

    /// Two removed entities that refer to each other (a cycle of reference columns) go together.
    @Test(arguments: StoreBackendKind.available) func removesEntitiesThatReferToEachOther(_ kind: StoreBackendKind) throws {
        let kept = EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)])
        let cycle = DataModel(entities: [
            kept,
            EntityDescription(
                name: "Shelf", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "favourite", destination: "Book")]),
            EntityDescription(
                name: "Book", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "shelf", destination: "Shelf")]),
        ])
        let place = try StorePlace(kind)
        try place.open(model: cycle).save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Note", attributes: ["title": .string("kept")])]))
        let store = try place.open(model: DataModel(entities: [kept]))
        #expect(try Self.tables(store, kind).isDisjoint(with: ["Shelf", "Book"]))
        #expect(try store.object("Note", 1)?.attributes["title"] == .string("kept"))
    }

    /// The order the steps take on each backend: an index before its column (SQLite cannot drop
    /// an indexed column), removed tables last, in one statement on PostgreSQL.
    @Test func removalStepsInTheirOrder() {
        let old = SchemaSnapshot(model: Self.removalModel())
        func sql(_ steps: [SchemaMigrationStep]) -> [String] {
            steps.compactMap { if case .sql(let sql) = $0 { return sql } else { return nil } }
        }
        let folderGone = Removal.entityWithRelationships.model
        #expect(
            sql(SchemaMigrator<SQLiteDialect>(old: old, new: folderGone).plan().steps) == [
                #"DROP INDEX IF EXISTS "Note_folder_fk""#, #"ALTER TABLE "Note" DROP COLUMN "folder""#,
                #"ALTER TABLE "Note" DROP COLUMN "_pos_folder""#, #"DROP TABLE "_rel_Folder_tags""#, #"DROP TABLE "Folder""#,
            ])
        #expect(
            sql(SchemaMigrator<PostgreSQLDialect>(old: old, new: folderGone).plan().steps) == [
                #"DROP INDEX IF EXISTS "Note_folder_fk""#, #"ALTER TABLE "Note" DROP COLUMN "folder""#,
                #"ALTER TABLE "Note" DROP COLUMN "_pos_folder""#, #"DROP TABLE "_rel_Folder_tags", "Folder""#,
            ])
        #expect(
            sql(SchemaMigrator<SQLiteDialect>(old: old, new: Removal.binaryAttribute.model).plan().steps) == [
                #"DROP INDEX IF EXISTS "Note_data_blob""#, #"ALTER TABLE "Note" DROP COLUMN "data""#,
            ])
        let plan = SchemaMigrator<SQLiteDialect>(old: old, new: Removal.indexedAttribute.model).plan()
        #expect(plan.removals == [.attribute(entity: "Note", attribute: "legacy")] && plan.refusals.isEmpty)
        #expect(sql(plan.steps) == [#"DROP INDEX IF EXISTS "Note_legacy_unique""#, #"ALTER TABLE "Note" DROP COLUMN "legacy""#])
    }
}
