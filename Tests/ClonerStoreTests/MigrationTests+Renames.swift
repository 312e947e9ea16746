import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Entities and relationships renamed through their Renaming ID keep their rows and links: the
/// store's tables, columns, join tables, indexes and constraints take the new names — exactly
/// those a new store of the new model has — and the next start plans nothing.
extension MigrationTests {
    /// `Note` renamed to `newName` with its relationships: `folder` (to-one, the ordered
    /// `Folder.notes` its inverse) to `parent`, `tags` (many-to-many) to `labels` with `Tag.notes`
    /// (ordered) to `memos`, `related` (ordered, no inverse) to `seeAlso`; `summary` (one-to-one) keeps its name.
    /// "Memo" sorts before Summary and Tag, so every storage keeps its side; "Zettel" sorts after,
    /// so the one-to-one's column and the many-to-many's table move to the other side.
    static func renamingModel(renamedTo newName: String? = nil) -> DataModel {
        let note = newName ?? "Note"
        func name(_ old: String, _ new: String) -> (name: String, renamingID: String?) {
            newName == nil ? (old, nil) : (new, old)
        }
        let folder = name("folder", "parent"), tags = name("tags", "labels"), related = name("related", "seeAlso")
        let notes = name("notes", "memos"), tagNotes = name("notes", "memos")
        return DataModel(entities: [
            EntityDescription(
                name: "Folder",
                attributes: [
                    AttributeDescription(name: "name", type: .string, isOptional: true, isUnique: true)
                ],
                relationships: [
                    RelationshipDescription(
                        name: notes.name, destination: note, isToMany: true, isOrdered: true, inverseName: folder.name, renamingID: notes.renamingID)
                ]),
            EntityDescription(
                name: note,
                attributes: [
                    AttributeDescription(name: "title", type: .string, isOptional: true, isUnique: true),
                    AttributeDescription(name: "code", type: .integer, isOptional: true),
                    AttributeDescription(name: "icon", type: .binary, isOptional: true),
                ],
                relationships: [
                    RelationshipDescription(name: folder.name, destination: "Folder", inverseName: notes.name, renamingID: folder.renamingID),
                    RelationshipDescription(name: tags.name, destination: "Tag", isToMany: true, inverseName: tagNotes.name, renamingID: tags.renamingID),
                    RelationshipDescription(name: "summary", destination: "Summary", inverseName: "note"),
                    RelationshipDescription(name: related.name, destination: note, isToMany: true, isOrdered: true, renamingID: related.renamingID),
                ],
                uniqueTogether: [["title", "code"]], renamingID: newName == nil ? nil : "Note"),
            EntityDescription(
                name: "Tag", attributes: [AttributeDescription(name: "label", type: .string, isOptional: true)],
                relationships: [
                    RelationshipDescription(
                        name: tagNotes.name, destination: note, isToMany: true, isOrdered: true, inverseName: tags.name,
                        renamingID: tagNotes.renamingID)
                ]),
            EntityDescription(
                name: "Summary", attributes: [AttributeDescription(name: "text", type: .string, isOptional: true)],
                relationships: [RelationshipDescription(name: "note", destination: note, inverseName: "summary")]),
        ])
    }

    /// Folder 1 lists notes 3, 1, 2; note 1 has tags 1 and 2, summary 1, related notes 3 then 2;
    /// note 2 has tag 2.
    static func writeRenamingData(_ store: IncrementalStore) throws {
        try store.save(
            ChangeSet(inserts: [
                ChangeSet.Insert(entity: "Tag", attributes: ["label": .string("red")]),
                ChangeSet.Insert(entity: "Tag", attributes: ["label": .string("blue")]),
                ChangeSet.Insert(entity: "Summary", attributes: ["text": .string("short")]),
                ChangeSet.Insert(
                    entity: "Note", attributes: ["title": .string("one"), "icon": .binary(Data([1, 2, 3]))],
                    relationships: ["tags": .toMany([.inserted(0), .inserted(1)]), "summary": .toOne(.inserted(2))]),
                ChangeSet.Insert(entity: "Note", attributes: ["title": .string("two")], relationships: ["tags": .toMany([.inserted(1)])]),
                ChangeSet.Insert(entity: "Note", attributes: ["title": .string("three")]),
                ChangeSet.Insert(
                    entity: "Folder", attributes: ["name": .string("inbox")], relationships: ["notes": .toMany([.inserted(5), .inserted(3), .inserted(4)])]),
            ]))
        try store.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: 1, relationships: ["related": .toMany([.existing(3), .existing(2)])])]))
    }

    /// The names the database gives the store's tables, columns, indexes and the constraints the
    /// store names (PostgreSQL's own names for primary keys and inline references left out).
    static func layout(_ store: IncrementalStore, _ kind: StoreBackendKind) throws -> Set<String> {
        let sql =
            kind == .postgreSQL
            ? """
            SELECT 'column ' || table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = current_schema()
            UNION ALL SELECT 'index ' || tablename || '.' || indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey'
            UNION ALL SELECT 'constraint ' || conrelid::regclass::text || '.' || conname FROM pg_constraint
              WHERE connamespace = current_schema()::regnamespace AND contype = 'f' AND conname NOT LIKE '%_fkey'
            """
            : """
            SELECT 'column ' || m.name || '.' || c.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c WHERE m.type = 'table'
            UNION ALL SELECT 'index ' || tbl_name || '.' || name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'
            UNION ALL SELECT 'reference ' || m.name || '.' || f."from" || ' ' || f."table" FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
              WHERE m.type = 'table'
            """
        return Set(try store.read { try $0.rawTexts(sql) }.compactMap { $0 })
    }

    @Test(arguments: StoreBackendKind.available, ["Memo", "Zettel"])
    func renamedEntityAndRelationshipsKeepTheirRowsAndLinks(_ kind: StoreBackendKind, _ newName: String) throws {
        let place = try StorePlace(kind)
        let before = try place.open(model: Self.renamingModel())
        try Self.writeRenamingData(before)
        try before.save(ChangeSet(updates: [ChangeSet.Update(entity: "Tag", id: 2, relationships: ["notes": .toMany([.existing(2), .existing(1)])])]))
        let model = Self.renamingModel(renamedTo: newName)

        let store = try place.open(model: model)
        guard case .migrated(_, _, let changes) = store.preparation else {
            Issue.record("not migrated: \(store.preparation)")
            return
        }
        #expect(changes.contains(#"ALTER TABLE "Note" RENAME TO "\#(newName)""#), "\(changes)")
        #expect(changes.contains("clone lineage of Note kept under \(newName)"), "\(changes)")
        let one = try #require(try store.object(newName, 1))
        #expect(one.attributes["title"] == .string("one") && one.attributes["icon"] == .binary(Data([1, 2, 3])))
        #expect(one.relationships["parent"] == .toOne(1))
        #expect(one.relationships["summary"] == .toOne(1))
        #expect(one.relationships["seeAlso"] == .toMany([3, 2]), "the order of an ordered to-many")
        guard case .toMany(let labels)? = one.relationships["labels"] else {
            Issue.record("no labels: \(one.relationships)")
            return
        }
        #expect(Set(labels) == [1, 2])
        #expect(try store.object("Folder", 1)?.relationships["memos"] == .toMany([3, 1, 2]), "the inverse's order")
        #expect(try store.object("Tag", 2)?.relationships["memos"] == .toMany([2, 1]), "the other side's order")
        #expect(try store.object("Summary", 1)?.relationships["note"] == .toOne(1))

        // Laid out exactly as a new store of the new model is.
        let freshPlace = try StorePlace(kind)
        let fresh = try freshPlace.open(model: model)
        let layout = try Self.layout(store, kind)
        #expect(layout == (try Self.layout(fresh, kind)))
        #expect(layout.isSuperset(of: ["column \(newName)._pos_parent", "index \(newName).\(newName)_title_unique", "index Folder.Folder_name_unique"]))
        #expect(!layout.contains { $0.contains("Note") || $0.contains("folder") || $0.contains("tags") }, "\(layout.sorted())")

        // Written and linked under the new names, and the next start plans nothing.
        let id = try store.save(
            ChangeSet(inserts: [
                ChangeSet.Insert(
                    entity: newName, attributes: ["title": .string("four")],
                    relationships: ["parent": .toOne(.existing(1)), "labels": .toMany([.existing(1)]), "seeAlso": .toMany([.existing(1)])])
            ])
        ).insertedIDs[0]
        #expect(try store.object("Folder", 1)?.relationships["memos"] == .toMany([3, 1, 2, id]))
        let reopened = try place.open(model: model)
        #expect(reopened.preparation == .unchanged)
        #expect(try reopened.object(newName, id)?.relationships["seeAlso"] == .toMany([1]))
    }

    /// A unique index keeps guarding its attribute under the entity's new name.
    @Test(arguments: StoreBackendKind.available) func aRenamedEntityStaysUnique(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        try Self.writeRenamingData(try place.open(model: Self.renamingModel()))
        let store = try place.open(model: Self.renamingModel(renamedTo: "Memo"))
        #expect(throws: (any Error).self) {
            try store.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Memo", attributes: ["title": .string("one")])]))
        }
    }

    @Test(arguments: StoreBackendKind.available) func aRenameThatAlsoChangesTheRelationshipIsRefused(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        try Self.writeRenamingData(try place.open(model: Self.renamingModel()))
        var entities = Self.renamingModel(renamedTo: "Memo").entities
        let memo = entities.firstIndex { $0.name == "Memo" }!
        entities[memo].relationships = entities[memo].relationships.map { relationship in
            var relationship = relationship
            if relationship.name == "seeAlso" { relationship.isOrdered = false }
            return relationship
        }
        #expect {
            _ = try place.open(model: DataModel(entities: entities))
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons == [
                "Memo.seeAlso: renamed from Note.related (Renaming ID), but its destination, cardinality, order or inverse changed too; existing links cannot be converted safely (rename it in one model version, change it in the next)"
            ]
        }
        let after = try place.open(model: Self.renamingModel())
        #expect(after.preparation == .unchanged, "the refusal changed nothing")
        #expect(try after.object("Note", 1)?.relationships["related"] == .toMany([3, 2]))
    }

    /// The renamed entity's other changes are planned as usual, under its new name: an attribute
    /// renamed through `originalName` keeps its values and its uniqueness; a removed one that holds
    /// values is refused, counted in the renamed table, and the refusal undoes the renames too.
    @Test(arguments: StoreBackendKind.available) func aRenamedEntitysOtherChangesArePlannedAsUsual(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let before = try place.open(model: Self.renamingModel())
        try Self.writeRenamingData(before)
        try before.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: 2, attributes: ["code": .integer(7)])]))
        let metadata = try Self.metadata(before)
        func model(keepingCode: Bool) -> DataModel {
            var entities = Self.renamingModel(renamedTo: "Memo").entities
            let memo = entities.firstIndex { $0.name == "Memo" }!
            entities[memo].attributes = entities[memo].attributes.compactMap { attribute in
                guard attribute.name != "title" else {
                    return AttributeDescription(name: "heading", type: .string, isOptional: true, isUnique: true, originalName: "title")
                }
                return attribute.name == "code" && !keepingCode ? nil : attribute
            }
            entities[memo].uniqueTogether = keepingCode ? [["heading", "code"]] : []
            return DataModel(entities: entities)
        }
        #expect {
            _ = try place.open(model: model(keepingCode: false))
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons == ["Memo.code: attribute was removed (or renamed without originalName), but 1 row holds a value"]
        }
        let unchanged = try place.open(model: Self.renamingModel())
        #expect(unchanged.preparation == .unchanged)
        #expect(try Self.metadata(unchanged) == metadata)
        #expect(try unchanged.object("Note", 2)?.attributes["code"] == .integer(7))

        let store = try place.open(model: model(keepingCode: true))
        #expect(try store.object("Memo", 2)?.attributes["heading"] == .string("two"))
        #expect(try store.object("Memo", 2)?.relationships["labels"] == .toMany([2]))
        #expect(throws: (any Error).self) {
            try store.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Memo", attributes: ["heading": .string("two")])]))
        }
        #expect(try place.open(model: model(keepingCode: true)).preparation == .unchanged)
    }

    /// A binary attribute renamed through `originalName` takes its index (and PostgreSQL its
    /// constraint) along: laid out as a new store is, and removable later once empty.
    @Test(arguments: StoreBackendKind.available) func aRenamedBinaryAttributeTakesItsBlobIndexAlong(_ kind: StoreBackendKind) throws {
        func model(_ icon: AttributeDescription?) -> DataModel {
            DataModel(entities: [
                EntityDescription(
                    name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)] + (icon.map { [$0] } ?? []))
            ])
        }
        let place = try StorePlace(kind)
        try place.open(model: model(AttributeDescription(name: "icon", type: .binary, isOptional: true))).save(
            ChangeSet(inserts: [ChangeSet.Insert(entity: "Note", attributes: ["icon": .binary(Data([9]))])]))
        let renamed = model(AttributeDescription(name: "picture", type: .binary, isOptional: true, originalName: "icon"))
        let store = try place.open(model: renamed)
        #expect(try store.object("Note", 1)?.attributes["picture"] == .binary(Data([9])))
        let freshPlace = try StorePlace(kind)
        #expect(try Self.layout(store, kind) == Self.layout(try freshPlace.open(model: renamed), kind))

        try store.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: 1, attributes: ["picture": .null])]))
        let removed = try place.open(model: model(nil))
        #expect(try removed.object("Note", 1)?.attributes["picture"] == nil)
        let withoutPlace = try StorePlace(kind)
        #expect(try Self.layout(removed, kind) == Self.layout(try withoutPlace.open(model: model(nil)), kind))
    }

    // MARK: - plans

    /// The renames run first and are the whole plan when nothing else changed: on SQLite an index
    /// is made again under its new name; on PostgreSQL indexes and constraints are renamed, and a
    /// one-to-one that moves takes its constraint along.
    @Test func renameStepsInTheirOrder() {
        let old = SchemaSnapshot(model: Self.renamingModel())
        func sql(_ steps: [SchemaMigrationStep]) -> [String] {
            steps.compactMap { if case .sql(let sql) = $0 { return sql } else { return nil } }
        }
        let memo = SchemaMigrator<SQLiteDialect>(old: old, new: Self.renamingModel(renamedTo: "Memo")).plan()
        #expect(memo.steps.isEmpty && memo.removals.isEmpty && memo.refusals.isEmpty)
        #expect(memo.renames.last == .renameLineage(entity: "Note", to: "Memo"))
        #expect(
            sql(memo.renames) == [
                #"ALTER TABLE "Note" RENAME TO "Memo""#,
                #"ALTER TABLE "Memo" RENAME COLUMN "folder" TO "parent""#,
                #"ALTER TABLE "Memo" RENAME COLUMN "_pos_folder" TO "_pos_parent""#,
                #"DROP INDEX IF EXISTS "Note_folder_fk""#,
                #"CREATE INDEX IF NOT EXISTS "Memo_parent_fk" ON "Memo"("parent", "_pos_parent") WHERE "parent" IS NOT NULL"#,
                #"DROP INDEX IF EXISTS "Note_summary_fk""#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Memo_summary_fk" ON "Memo"("summary") WHERE "summary" IS NOT NULL"#,
                #"DROP INDEX IF EXISTS "Note_title_unique""#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Memo_title_unique" ON "Memo"("title")"#,
                #"DROP INDEX IF EXISTS "Note(title,code)_unique""#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "Memo(title,code)_unique" ON "Memo"("title", "code")"#,
                #"DROP INDEX IF EXISTS "Note_icon_blob""#,
                #"CREATE INDEX IF NOT EXISTS "Memo_icon_blob" ON "Memo"("icon") WHERE "icon" IS NOT NULL"#,
                #"ALTER TABLE "_rel_Note_tags" RENAME TO "_rel_Memo_labels""#,
                #"DROP INDEX IF EXISTS "_rel_Note_tags_dst""#,
                #"CREATE INDEX IF NOT EXISTS "_rel_Memo_labels_dst" ON "_rel_Memo_labels"("dst", "src")"#,
                #"ALTER TABLE "_rel_Note_related" RENAME TO "_rel_Memo_seeAlso""#,
                #"DROP INDEX IF EXISTS "_rel_Note_related_dst""#,
                #"CREATE INDEX IF NOT EXISTS "_rel_Memo_seeAlso_dst" ON "_rel_Memo_seeAlso"("dst", "src")"#,
            ])
        let zettel = sql(SchemaMigrator<PostgreSQLDialect>(old: old, new: Self.renamingModel(renamedTo: "Zettel")).plan().renames)
        let moved = [
            #"ALTER TABLE "Summary" ADD COLUMN "note" int8"#,
            #"UPDATE "Summary" SET "note" = (SELECT "o"."_id" FROM "Zettel" AS "o" WHERE "o"."summary" = "Summary"."_id")"#,
            #"DROP INDEX IF EXISTS "Note_summary_fk""#,
            #"ALTER TABLE "Zettel" DROP COLUMN "summary""#,
            #"CREATE UNIQUE INDEX IF NOT EXISTS "Summary_note_fk" ON "Summary" ("note")"#,
            #"ALTER TABLE "Summary" ADD CONSTRAINT "Summary_note_ref" FOREIGN KEY ("note") REFERENCES "Zettel"("_id") DEFERRABLE INITIALLY DEFERRED"#,
        ]
        let start = zettel.firstIndex(of: moved[0]) ?? 0
        #expect(Array(zettel[start...].prefix(moved.count)) == moved, "\(zettel)")
        #expect(zettel.contains(#"ALTER TABLE "Zettel" RENAME CONSTRAINT "Note_folder_ref" TO "Zettel_parent_ref""#))
        #expect(zettel.contains(#"ALTER INDEX IF EXISTS "Note_icon_blob" RENAME TO "Zettel_icon_blob""#))
        #expect(zettel.contains(#"INSERT INTO "_rel_Tag_memos" ("src", "dst", "src_pos") SELECT "dst", "src", "dst_pos" FROM "_rel_Note_tags""#))
        #expect(zettel.contains(#"DROP TABLE "_rel_Note_tags""#))
    }

    /// Two claims on one old entity or relationship are refused naming both; a Renaming ID that
    /// names something the new model still has (a version hash modifier, or names swapped) is no
    /// rename.
    @Test func renamingIDsThatAreNoRename() {
        let old = SchemaSnapshot(model: Self.renamingModel())
        var twice = Self.renamingModel(renamedTo: "Memo").entities
        twice.append(EntityDescription(name: "Page", attributes: [], renamingID: "Note"))
        let plan = SchemaMigrator<SQLiteDialect>(old: old, new: DataModel(entities: twice)).plan()
        #expect(plan.refusals.first == "entities Memo and Page have the same Renaming ID Note; only one of them can be the store's Note renamed")
        #expect(plan.renames.isEmpty)

        var relationships = Self.renamingModel().entities
        let note = relationships.firstIndex { $0.name == "Note" }!
        relationships[note].relationships.append(RelationshipDescription(name: "again", destination: "Note", renamingID: "related"))
        relationships[note].relationships.append(RelationshipDescription(name: "more", destination: "Note", renamingID: "related"))
        relationships[note].relationships.removeAll { $0.name == "related" }
        let claimed = SchemaMigrator<SQLiteDialect>(old: old, new: DataModel(entities: relationships)).plan()
        #expect(
            claimed.refusals == [
                "relationships Note.again and Note.more have the same Renaming ID related; only one of them can be the store's Note.related renamed"
            ])

        // A new name the store still uses is refused: the old entity would have to go first.
        var taken = Self.renamingModel().entities.filter { $0.name != "Summary" }
        taken[note].relationships.removeAll { $0.name == "summary" }
        taken[taken.firstIndex { $0.name == "Folder" }!].renamingID = "Summary"
        let refused = SchemaMigrator<SQLiteDialect>(old: old, new: DataModel(entities: taken)).plan()
        #expect(
            refused.refusals.first
                == "entity Folder: renamed from Summary (Renaming ID), but the store still has an entity Folder; remove it in one model version and rename Summary in the next"
        )

        // Still named: the entity keeps its table, the relationship its join table.
        var kept = Self.renamingModel().entities
        kept[note].renamingID = "Folder"
        kept[note].relationships = kept[note].relationships.map { relationship in
            var relationship = relationship
            if relationship.name == "related" { relationship.renamingID = "summary" }
            return relationship
        }
        let unchanged = SchemaMigrator<SQLiteDialect>(old: old, new: DataModel(entities: kept)).plan()
        #expect(unchanged == SchemaMigrationPlan())
    }
}
