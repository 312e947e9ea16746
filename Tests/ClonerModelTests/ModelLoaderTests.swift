import Foundation
import Testing
@testable import ClonerModel

@Suite struct ModelLoaderTests {
    @Test func sampleModelLoads() throws {
        let model = try ModelLoader.load(contentsOf: sampleModelURL)
        #expect(model.entities.map(\.name) == ["Note", "Item", "ItemData", "Memo", "Tag", "Attachment", "NoteDescription"])
        #expect(model.entity(forCollection: "notes")?.name == "Note")
        #expect(model.entity(forCollection: "itemdata")?.name == "ItemData")
        #expect(model.entity(forCollection: "descriptions")?.name == "NoteDescription")
        #expect(model.entity(forCollection: "memos")?.name == "Memo", "default collection")
    }

    @Test func sampleModelOwnership() throws {
        let model = try ModelLoader.load(contentsOf: sampleModelURL)
        func relationship(_ qualified: String) throws -> RelationshipDescription {
            let parts = qualified.split(separator: ".").map(String.init)
            return try #require(model.entity(named: parts[0])?.relationship(named: parts[1]), "\(qualified)")
        }
        let expected: [String: RelationshipCloneRule.Ownership] = [
            "Note.items": .copy, "Item.note": .share,
            "Note.memos": .copy, "Memo.note": .share,
            "Note.noteDescription": .copy, "NoteDescription.note": .copy,
            "Note.template": .share,
            "Item.itemDatas": .copy, "ItemData.item": .share,
            "ItemData.memo": .copy, "Memo.itemData": .copy,
            "Memo.tags": .share, "Tag.memos": .share,
            "Memo.attachments": .copy, "Attachment.memo": .share,
        ]
        for (name, ownership) in expected {
            let described = try relationship(name)
            #expect(described.ownership == ownership, "\(name)")
            #expect(described.qualifiedName == name)
        }
        #expect(try relationship("Note.template").cloneRule.ownershipOverride == .share)
        #expect(try relationship("Note.template").hasInverse == false)
        #expect(try relationship("NoteDescription.note").cloneRule.isExcluded)
        #expect(try relationship("Note.items").isOrdered)
        #expect(try relationship("Note.items").deleteRule == .cascade)
        #expect(try relationship("Tag.memos").deleteRule == .deny)
        #expect(try relationship("Note.template").deleteRule == .noAction)
        #expect(try relationship("Item.note").deleteRule == .nullify)
        #expect(try relationship("Attachment.memo").isOptional == false)
        #expect(model.inverse(of: try relationship("Memo.tags"))?.qualifiedName == "Tag.memos")
    }

    @Test func sampleModelAttributes() throws {
        let model = try ModelLoader.load(contentsOf: sampleModelURL)
        let note = try #require(model.entity(named: "Note"))
        #expect(note.attribute(named: "id")?.cloneRule.rebuild == .uuid)
        #expect(note.attribute(named: "id")?.isUnique == true)
        #expect(note.attribute(named: "createDate")?.cloneRule.rebuild == AttributeCloneRule.Rebuild.now)
        #expect(note.attribute(named: "index")?.defaultValue == .integer(0))
        #expect(note.attribute(named: "isPinned")?.defaultValue == .boolean(false))
        #expect(note.attribute(named: "settings")?.defaultValue == .json(#"{"fontSize":14,"theme":"system"}"#))
        #expect(note.attribute(named: "shareLink")?.cloneRule.isExcluded == true)
        let noteID = try #require(model.entity(named: "Item")?.attribute(named: "noteID"))
        #expect(noteID.cloneRule == AttributeCloneRule(followParent: "id", withoutParent: .blank))
        #expect(model.entity(named: "ItemData")?.attribute(named: "value")?.defaultValue == .double(0))
        #expect(model.entity(named: "Memo")?.attribute(named: "text")?.originalName == "body")
        #expect(model.entity(named: "Tag")?.attribute(named: "name")?.isUnique == true)
        // Every attribute type is used somewhere in the sample.
        let used = Set(model.entities.flatMap { $0.attributes.map(\.type) })
        #expect(used == Set(AttributeType.allCases))
    }

    @Test func customRuleKeys() throws {
        let keys = CloneRuleKeys(
            exclude: "MOCloner.exclude", rebuild: "MOCloner.rebuild", followParent: "MOCloner.followParent",
            withoutParent: "MOCloner.withoutParent", clone: "MOCloner.clone")
        let text = modelText(
            #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid", "userInfo": {"MOCloner.rebuild": "uuid", "rebuild": "now"}}, {"name": "secret", "type": "string", "optional": true, "userInfo": {"MOCloner.exclude": true}}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}, {"name": "template", "destination": "Note", "userInfo": {"MOCloner.clone": "share"}}]}"#,
            #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"MOCloner.followParent": "id", "MOCloner.withoutParent": "blank"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#
        )
        let model = try load(text, keys: keys)
        let note = try #require(model.entity(named: "Note"))
        // The default key names are plain userInfo now: `"rebuild": "now"` on a uuid is not a rule.
        #expect(note.attribute(named: "id")?.cloneRule.rebuild == .uuid)
        #expect(note.attribute(named: "secret")?.cloneRule.isExcluded == true)
        #expect(note.relationship(named: "template")?.ownership == .share)
        #expect(model.entity(named: "Item")?.attribute(named: "noteID")?.cloneRule == AttributeCloneRule(followParent: "id", withoutParent: .blank))

        // Mistakes are reported under the configured names.
        let broken = text.replacingOccurrences(of: #""MOCloner.rebuild": "uuid""#, with: #""MOCloner.rebuild": "now""#)
        expectSingleProblem(broken, entity: "Note", property: "id", containing: ["MOCloner.rebuild: now applies to date attributes only"], keys: keys)
        // With the default keys, the same file reads `"rebuild": "now"` as a rule on a uuid.
        expectSingleProblem(text, entity: "Note", property: "id", containing: ["rebuild: now applies to date"])
    }

    @Test func normalisedModelRoundTrips() throws {
        let original = try ModelLoader.load(contentsOf: sampleModelURL)
        let text = original.normalizedText
        let reloaded = try load(text)
        #expect(reloaded == original)
        #expect(reloaded.normalizedText == text)
        #expect(reloaded.fingerprint == original.fingerprint)
    }

    @Test func normalisedModelRoundTripsEveryDefaultType() throws {
        let original = try load(
            modelText(
                #"""
                {"name": "Sample", "attributes": [
                  {"name": "s", "type": "string", "default": "line\nbreak \"quoted\" é"},
                  {"name": "i", "type": "integer", "default": -7},
                  {"name": "d", "type": "double", "default": 0.1},
                  {"name": "b", "type": "boolean", "default": true},
                  {"name": "t", "type": "date", "default": "1969-12-31T23:59:59.999-00:30"},
                  {"name": "u", "type": "uuid", "default": "4F9D3C1E-8A2B-4C6D-9E0F-1A2B3C4D5E6F"},
                  {"name": "x", "type": "binary", "default": "AAEC/w=="},
                  {"name": "j", "type": "json", "default": {"z": [1, 1.5, "a", null, true], "a": {}}},
                  {"name": "n", "type": "json", "optional": true, "userInfo": {"exclude": 1.0, "nested": {"k": [1]}}},
                  {"name": "m", "type": "decimal", "default": 12345678901234567890.123456789}
                ]}
                """#))
        let normalized = original.normalizedJSON
        let attributes = normalized.objectValue?["entities"].flatMap { if case .array(let e) = $0 { e.first?.objectValue } else { nil } }?["attributes"]
        guard case .array(let written)? = attributes else { Issue.record("no attributes in \(normalized)"); return }
        #expect(written[4].objectValue?["default"] == .string("1970-01-01T00:29:59.999Z"))
        #expect(written[5].objectValue?["default"] == .string("4f9d3c1e-8a2b-4c6d-9e0f-1a2b3c4d5e6f"))
        #expect(written[8].objectValue?["default"] == .null)
        #expect(written[8].objectValue?["originalName"] == .null)
        #expect(written[9].objectValue?["default"] == .string("12345678901234567890.123456789"), "a decimal's digits, as a string")
        let reloaded = try load(original.normalizedText)
        #expect(reloaded == original)
    }

    @Test func normalisedModelSpellsOutEveryDefault() throws {
        let model = try load(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "title", "type": "string"}], "relationships": [{"name": "next", "destination": "Note", "userInfo": {"clone": "share"}}]}"#
            ))
        let expected: JSONValue = .object([
            "entities": .array([
                .object([
                    "name": "Note", "collection": "notes",
                    "attributes": .array([
                        .object([
                            "name": "title", "type": "string", "optional": false, "default": .null, "unique": false,
                            "originalName": .null, "userInfo": .object([:]),
                        ])
                    ]),
                    "relationships": .array([
                        .object([
                            "name": "next", "destination": "Note", "toMany": false, "ordered": false, "inverse": .null,
                            "deleteRule": "nullify", "optional": true, "userInfo": .object(["clone": "share"]),
                        ])
                    ]),
                    "uniqueTogether": .array([]),
                ])
            ])
        ])
        #expect(model.normalizedJSON == expected)
        // Encodable gives the same document through JSONEncoder.
        let encoded = try JSONEncoder().encode(model)
        #expect(try JSONValue(parsing: encoded) == expected)
    }

    @Test func fingerprintIsStableAndTracksChanges() throws {
        let base = modelText(#"{"name": "Note", "attributes": [{"name": "index", "type": "integer", "default": 0}]}"#)
        let model = try load(base)
        #expect(model.fingerprint.count == 16)
        #expect(model.fingerprint.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try load(base).fingerprint == model.fingerprint)

        // Formatting, member order and spelled-out defaults do not change the model.
        let respelled = #"""
            {
              "entities": [ { "collection": "notes", "relationships": [], "name": "Note",
                "attributes": [ { "default": 0, "type": "integer", "optional": false, "unique": false, "name": "index" } ] } ]
            }
            """#
        #expect(try load(respelled).fingerprint == model.fingerprint)

        let changes = [
            base.replacingOccurrences(of: #""default": 0"#, with: #""default": 1"#),
            base.replacingOccurrences(of: #""default": 0"#, with: #""default": 0, "unique": true"#),
            base.replacingOccurrences(of: #""default": 0"#, with: #""default": 0, "userInfo": {"exclude": true}"#),
            base.replacingOccurrences(of: #""integer""#, with: #""double""#),
            base.replacingOccurrences(of: #""name": "Note""#, with: #""name": "Note", "collection": "n""#),
            base.replacingOccurrences(of: #""name": "index""#, with: #""name": "position""#),
        ]
        var fingerprints: Set<String> = [model.fingerprint]
        for changed in changes {
            fingerprints.insert(try load(changed).fingerprint)
        }
        #expect(fingerprints.count == changes.count + 1, "every change gives a new fingerprint")
    }

    @Test func fingerprintIsFNV1aOfTheCanonicalText() throws {
        let model = try ModelLoader.load(contentsOf: sampleModelURL)
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in model.normalizedJSON.canonicalText.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        #expect(UInt64(model.fingerprint, radix: 16) == hash)
    }

    @Test func unreadableFile() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-no-such-model-\(UUID()).json")
        do {
            _ = try ModelLoader.load(contentsOf: url)
            Issue.record("loading a missing file should fail")
        } catch {
            #expect(error.path == url.path)
            #expect(error.problems.count == 1)
            #expect(error.description.contains("cannot read the model file"))
        }
    }

    @Test func fileErrorsCarryThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-model-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("model.json")
        try Data("{\"entities\": [\n  {\"name\": \"Note\",}\n]}".utf8).write(to: url)
        do {
            _ = try ModelLoader.load(contentsOf: url)
            Issue.record("a trailing comma should fail")
        } catch {
            #expect(error.description.hasPrefix("invalid model \(url.path):"))
            #expect(error.problems.first?.message.contains("line 2, column 19") == true, "\(error)")
        }
    }
}
