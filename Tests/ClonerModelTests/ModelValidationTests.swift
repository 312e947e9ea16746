import Foundation
import Testing
@testable import ClonerModel

/// One test per mistake the loader must catch (docs/architecture.md#the-model-file, #clone-semantics), each checking that the
/// problem is located at, and names, the entity and property at fault.
@Suite struct ModelValidationTests {
    // MARK: Names

    @Test(arguments: ["first name", "name-2", "naïve", ""])
    func nameWithForbiddenCharacters(name: String) {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "\#(name)", "type": "string"}]}"#),
            entity: "Note", property: name, containing: ["entities[0].attributes[0].name"])
    }

    @Test func nameStartingWithDigit() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "2nd", "type": "string"}]}"#),
            entity: "Note", property: "2nd", containing: ["must not start with a digit"])
    }

    @Test func nameStartingWithUnderscore() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "_secret", "type": "string"}]}"#),
            entity: "Note", property: "_secret", containing: ["must not start with _"])
    }

    @Test(arguments: ["_id", "_entity", "_version"])
    func reservedName(name: String) {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "\#(name)", "type": "integer"}]}"#),
            entity: "Note", property: name, containing: ["reserved"])
    }

    @Test func invalidEntityName() {
        expectSingleProblem(
            modelText(#"{"name": "Note Book", "attributes": []}"#),
            entity: "Note Book", property: nil, containing: ["only ASCII letters, digits and _"])
    }

    @Test func duplicateEntityNames() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": []}"#, #"{"name": "Note", "collection": "notes2", "attributes": []}"#),
            entity: "Note", property: nil, containing: ["duplicate entity name", "entities[1]", "first at entities[0]"])
    }

    @Test func entityNamesDifferingOnlyInCase() {
        expectSingleProblem(
            modelText(#"{"name": "Note"}"#, #"{"name": "NOTE", "collection": "shouting"}"#),
            entity: "NOTE", property: nil, containing: ["only in case"])
    }

    @Test func duplicateCollections() {
        // "Note" defaults to "notes", which the second entity claims explicitly.
        expectSingleProblem(
            modelText(#"{"name": "Note"}"#, #"{"name": "Memo", "collection": "notes"}"#),
            entity: "Memo", property: nil, containing: ["duplicate collection \"notes\"", "Note"])
    }

    @Test func collectionShadowingAServiceRoute() {
        expectSingleProblem(
            modelText(#"{"name": "Job"}"#),
            entity: "Job", property: nil, containing: ["\"jobs\"", "route"])
    }

    @Test func collectionThatIsNotAPathSegment() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "collection": "my/notes"}"#),
            entity: "Note", property: nil, containing: ["entities[0].collection"])
    }

    @Test func duplicateAttributeNames() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "title", "type": "string"}, {"name": "title", "type": "integer"}]}"#),
            entity: "Note", property: "title", containing: ["duplicate property name", "entities[0].attributes[1]"])
    }

    @Test func attributeAndRelationshipWithTheSameName() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "owner", "type": "string"}], "relationships": [{"name": "owner", "destination": "Note"}]}"#),
            entity: "Note", property: "owner", containing: ["duplicate property name", "entities[0].relationships[0]"])
    }

    @Test func propertyNamesDifferingOnlyInCase() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "title", "type": "string"}, {"name": "Title", "type": "string"}]}"#),
            entity: "Note", property: "Title", containing: ["only in case"])
    }

    @Test func originalNameOfAnotherCurrentProperty() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "title", "type": "string"}, {"name": "heading", "type": "string", "originalName": "title"}]}"#),
            entity: "Note", property: "heading", containing: ["originalName \"title\"", "ambiguous"])
    }

    // MARK: Attributes

    @Test func unknownAttributeType() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "count", "type": "int"}]}"#),
            entity: "Note", property: "count", containing: ["unknown attribute type \"int\"", "did you mean \"integer\"", "entities[0].attributes[0].type"])
    }

    static let badDefaults: [(AttributeType, String)] = [
        (.string, "5"), (.integer, "\"5\""), (.integer, "1.5"), (.integer, "true"), (.double, "\"1.5\""), (.boolean, "0"),
        (.date, "\"2024-02-30T00:00:00Z\""), (.date, "\"yesterday\""), (.date, "1700000000"),
        (.uuid, "\"not-a-uuid\""), (.uuid, "42"), (.binary, "\"%%%\""), (.binary, "[1, 2]"),
    ]

    @Test(arguments: badDefaults)
    func defaultOfTheWrongType(type: AttributeType, json: String) {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "field", "type": "\#(type.rawValue)", "default": \#(json)}]}"#),
            entity: "Note", property: "field",
            containing: ["does not fit the \(type.rawValue) attribute", type.expectedJSONForm, "entities[0].attributes[0].default"])
    }

    static let goodDefaults: [(AttributeType, String, AttributeValue)] = [
        (.string, "\"x\"", .string("x")),
        (.integer, "-9223372036854775808", .integer(.min)),
        (.double, "2", .double(2)),
        (.double, "2.5e3", .double(2500)),
        (.boolean, "true", .boolean(true)),
        (.date, "\"2024-05-01T12:00:00.123Z\"", .date(millisecondsSince1970: 1_714_564_800_123)),
        (.date, "\"2024-05-01T14:00:00+02:00\"", .date(millisecondsSince1970: 1_714_564_800_000)),
        (.uuid, "\"4F9D3C1E-8A2B-4C6D-9E0F-1A2B3C4D5E6F\"", .uuid(UUID(uuidString: "4f9d3c1e-8a2b-4c6d-9e0f-1a2b3c4d5e6f")!)),
        (.binary, "\"AAEC/w==\"", .binary(Data([0, 1, 2, 255]))),
        (.json, "{\"b\": [1, 2.5, null], \"a\": \"x\"}", .json("{\"a\":\"x\",\"b\":[1,2.5,null]}")),
        (.json, "false", .json("false")),
    ]

    @Test(arguments: goodDefaults)
    func defaultOfTheRightType(type: AttributeType, json: String, expected: AttributeValue) throws {
        let model = try load(modelText(#"{"name": "Note", "attributes": [{"name": "field", "type": "\#(type.rawValue)", "default": \#(json)}]}"#))
        #expect(model.entity(named: "Note")?.attribute(named: "field")?.defaultValue == expected)
    }

    @Test func nullDefaultMeansNoDefault() throws {
        let model = try load(modelText(#"{"name": "Note", "attributes": [{"name": "field", "type": "json", "optional": true, "default": null}]}"#))
        #expect(model.entity(named: "Note")?.attribute(named: "field")?.defaultValue == nil)
    }

    // MARK: Relationships

    @Test func orderedOnAToOne() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "relationships": [{"name": "next", "destination": "Note", "ordered": true, "userInfo": {"clone": "share"}}]}"#),
            entity: "Note", property: "next", containing: ["ordered applies to to-many", "entities[0].relationships[0].ordered"])
    }

    @Test func unknownDestination() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "relationships": [{"name": "items", "destination": "Itme", "toMany": true}]}"#, #"{"name": "Item"}"#),
            entity: "Note", property: "items", containing: ["destination \"Itme\" is not an entity", "Note, Item"])
    }

    @Test func inverseThatDoesNotExist() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "nope"}]}"#,
                #"{"name": "Item"}"#),
            entity: "Note", property: "items", containing: ["inverse \"nope\" is not a relationship of Item"])
    }

    @Test func inverseThatIsAnAttribute() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Item", "attributes": [{"name": "note", "type": "string"}]}"#),
            entity: "Note", property: "items", containing: ["is an attribute of Item"])
    }

    @Test func inverseNamingAnotherRelationship() {
        let found = problems(
            in: modelText(
                #"{"name": "Note", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}, {"name": "archived", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Item", "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#))
        #expect(found.count == 1)
        #expect(found.first?.entity == "Note")
        #expect(found.first?.property == "archived")
        #expect(found.first?.description.contains("does not point back: its inverse is items, not archived") == true)
    }

    @Test func inverseWithAnotherDestination() {
        let found = problems(
            in: modelText(
                #"{"name": "Note", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "owner"}]}"#,
                #"{"name": "Item", "relationships": [{"name": "owner", "destination": "Folder", "inverse": "items"}]}"#,
                #"{"name": "Folder", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "owner"}]}"#))
        let noteProblem = found.first { $0.entity == "Note" }
        #expect(noteProblem?.property == "items")
        #expect(noteProblem?.description.contains("its destination is Folder, not Note") == true)
        #expect(found.count == 1, "Item.owner and Folder.items are a consistent pair: \(found)")
    }

    @Test func inverseThatDeclaresNoInverse() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Item", "relationships": [{"name": "note", "destination": "Note"}]}"#),
            entity: "Note", property: "items", containing: ["declares no inverse", "both sides"])
    }

    @Test func unknownDeleteRule() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "relationships": [{"name": "next", "destination": "Note", "deleteRule": "cascde", "userInfo": {"clone": "share"}}]}"#),
            entity: "Note", property: "next", containing: ["unknown deleteRule \"cascde\"", "did you mean \"cascade\""])
    }

    @Test func validRelationshipShapesLoad() throws {
        // Many-to-many ordered on both sides, every delete rule, a self-inverse one-to-one, and an
        // excluded relationship: all legal.
        let model = try load(
            modelText(
                #"{"name": "Memo", "relationships": [{"name": "tags", "destination": "Tag", "toMany": true, "ordered": true, "inverse": "memos", "deleteRule": "deny"}, {"name": "twin", "destination": "Memo", "inverse": "twin", "deleteRule": "noAction", "userInfo": {"exclude": 1}}]}"#,
                #"{"name": "Tag", "relationships": [{"name": "memos", "destination": "Memo", "toMany": true, "ordered": true, "inverse": "tags", "deleteRule": "cascade"}]}"#
            ))
        let tags = try #require(model.entity(named: "Memo")?.relationship(named: "tags"))
        #expect(tags.isOrdered && tags.deleteRule == .deny && tags.ownership == .share)
        #expect(model.entity(named: "Memo")?.relationship(named: "twin")?.cloneRule.isExcluded == true)
    }

    // MARK: Attribute clone rules (docs/architecture.md#attribute-rules)

    @Test func excludeOnARequiredAttributeWithoutDefault() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "title", "type": "string", "userInfo": {"exclude": true}}]}"#),
            entity: "Note", property: "title", containing: ["required and has no default", "userInfo.exclude"])
    }

    @Test func excludeOnAnAttributeWithADefaultIsFine() throws {
        let model = try load(
            modelText(#"{"name": "Note", "attributes": [{"name": "title", "type": "string", "default": "", "userInfo": {"exclude": "yes"}}]}"#))
        #expect(model.entity(named: "Note")?.attribute(named: "title")?.cloneRule.isExcluded == true)
    }

    @Test func rebuildWithAnUnknownValue() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "id", "type": "uuid", "userInfo": {"rebuild": "random"}}]}"#),
            entity: "Note", property: "id", containing: ["rebuild must be \"uuid\", \"now\" or \"suffix\"", "\"random\""])
    }

    @Test func rebuildUUIDOnADate() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "createDate", "type": "date", "userInfo": {"rebuild": "uuid"}}]}"#),
            entity: "Note", property: "createDate", containing: ["rebuild: uuid applies to uuid attributes only", "date"])
    }

    @Test func rebuildNowOnAUUID() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "id", "type": "uuid", "userInfo": {"rebuild": "now"}}]}"#),
            entity: "Note", property: "id", containing: ["rebuild: now applies to date attributes only"])
    }

    @Test func withoutParentWithAnUnknownValue() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"followParent": "id", "withoutParent": "drop"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#
            ),
            entity: "Item", property: "noteID", containing: ["withoutParent must be \"keep\" or \"blank\"", "\"drop\""])
    }

    @Test func withoutParentBlankOnARequiredAttribute() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "userInfo": {"followParent": "id", "withoutParent": "blank"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#
            ),
            entity: "Item", property: "noteID", containing: ["withoutParent: blank", "required and has no default"])
    }

    @Test func withoutParentWithoutFollowParent() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "code", "type": "string", "optional": true, "userInfo": {"withoutParent": "blank"}}]}"#),
            entity: "Note", property: "code", containing: ["only matters with followParent"])
    }

    @Test func followParentMissingOnOneOfTheParentsCountsAsNoParent() throws {
        // Item is reached from Note (which has `id`) and from Folder (which does not): under Folder
        // an item has no parent to follow and `withoutParent` decides (attribute rule 2, docs/architecture.md#following-the-parent).
        let model = try load(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Folder", "relationships": [{"name": "items", "destination": "Item", "toMany": true}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"followParent": "id"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#
            ))
        #expect(model.entity(named: "Item")?.attribute(named: "noteID")?.cloneRule.followParent == "id")
    }

    @Test func followParentNamingAnAttributeNoParentHas() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Folder", "relationships": [{"name": "items", "destination": "Item", "toMany": true}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"followParent": "idd"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#
            ),
            entity: "Item", property: "noteID", containing: ["no entity that can be the parent of Item (Folder, Note) has an attribute idd"])
    }

    /// An entity no relationship owns can never have a parent, so its rule names an attribute no
    /// parent has: the same typo as with parents, reported the same way.
    @Test func followParentOnAnEntityThatCanNeverHaveAParent() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "id", "type": "uuid", "userInfo": {"followParent": "nope"}}]}"#),
            entity: "Note", property: "id", containing: ["followParent \"nope\"", "no entity can be the parent of Note"])
    }

    @Test func followParentOfAnotherTypeOnAParent() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "string"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"followParent": "id"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#
            ),
            entity: "Item", property: "noteID", containing: ["Note.id is string, but Item.noteID is uuid", "Note.items"])
    }

    @Test func followParentIgnoresSharedAndExcludedRelationships() throws {
        // Board.items is shared (many-to-many) and Archive.items is excluded: neither makes a parent,
        // so neither needs `id`. A self-referential tree follows its own attribute.
        let model = try load(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Board", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "boards"}]}"#,
                #"{"name": "Archive", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "userInfo": {"exclude": true}}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"followParent": "id"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}, {"name": "boards", "destination": "Board", "toMany": true, "inverse": "items"}]}"#,
                #"{"name": "Folder", "attributes": [{"name": "path", "type": "string"}, {"name": "parentPath", "type": "string", "default": "/", "userInfo": {"followParent": "path", "withoutParent": "blank"}}], "relationships": [{"name": "children", "destination": "Folder", "toMany": true, "inverse": "parent"}, {"name": "parent", "destination": "Folder", "inverse": "children"}]}"#
            ))
        #expect(model.entity(named: "Item")?.attribute(named: "noteID")?.cloneRule.followParent == "id")
        #expect(model.entity(named: "Folder")?.attribute(named: "parentPath")?.cloneRule.withoutParent == .blank)
    }

    @Test func followParentThroughACopyOverride() {
        // Board.items would be shared, but `clone: copy` makes Board a parent, so its `id` must have the type.
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note"}]}"#,
                #"{"name": "Board", "attributes": [{"name": "id", "type": "string"}], "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "boards", "userInfo": {"clone": "copy"}}]}"#,
                #"{"name": "Item", "attributes": [{"name": "noteID", "type": "uuid", "optional": true, "userInfo": {"followParent": "id"}}], "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}, {"name": "boards", "destination": "Board", "toMany": true, "inverse": "items"}]}"#
            ),
            entity: "Item", property: "noteID", containing: ["Board.id is string, but Item.noteID is uuid"])
    }

    // MARK: Relationship clone rules

    @Test func cloneWithAnUnknownValue() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "relationships": [{"name": "next", "destination": "Note", "userInfo": {"clone": "link"}}]}"#),
            entity: "Note", property: "next", containing: ["clone must be \"share\" or \"copy\"", "\"link\""])
    }

    @Test func cloneShareOnARelationshipWhoseInverseIsToOne() {
        expectSingleProblem(
            modelText(
                #"{"name": "Note", "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "note", "userInfo": {"clone": "share"}}]}"#,
                #"{"name": "Item", "relationships": [{"name": "note", "destination": "Note", "inverse": "items"}]}"#),
            entity: "Note", property: "items", containing: ["clone: share", "Item.note is to-one", "steal the destinations"])
    }

    @Test func attributeRuleOnARelationship() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "relationships": [{"name": "next", "destination": "Note", "userInfo": {"clone": "share", "rebuild": "uuid"}}]}"#),
            entity: "Note", property: "next", containing: ["rebuild is an attribute rule"])
    }

    @Test func relationshipRuleOnAnAttribute() {
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "title", "type": "string", "userInfo": {"clone": "copy"}}]}"#),
            entity: "Note", property: "title", containing: ["clone is a relationship rule"])
    }

    @Test func freeUserInfoKeysAreKept() throws {
        let model = try load(
            modelText(#"{"name": "Note", "attributes": [{"name": "title", "type": "string", "userInfo": {"ui.label": "Title", "maxLength": 80}}]}"#))
        #expect(model.entity(named: "Note")?.attribute(named: "title")?.userInfo == ["ui.label": .string("Title"), "maxLength": .integer(80)])
    }

    // MARK: Shape of the file

    @Test func unknownFieldsAreProblems() {
        let found = problems(
            in: #"""
                {"entities": [{"name": "Note", "colection": "n",
                  "attributes": [{"name": "title", "type": "string", "optinal": true}],
                  "relationships": [{"name": "next", "destination": "Note", "tomany": true, "userInfo": {"clone": "share"}}]}],
                 "version": 2}
                """#)
        #expect(found.count == 4, "\(found)")
        let texts = found.map(\.description)
        #expect(texts.contains { $0.contains("unknown field \"version\"") && $0.contains("(at model.version)") })
        #expect(texts.contains { $0.hasPrefix("Note:") && $0.contains("\"colection\"") && $0.contains("did you mean \"collection\"") })
        #expect(texts.contains { $0.hasPrefix("Note.title:") && $0.contains("\"optinal\"") && $0.contains("did you mean \"optional\"") })
        #expect(texts.contains { $0.hasPrefix("Note.next:") && $0.contains("\"tomany\"") && $0.contains("did you mean \"toMany\"") })
    }

    @Test func wrongShapesAreReportedWithTheirPath() {
        let found = problems(
            in: #"""
                {"entities": [
                  {"name": "Note", "attributes": [{"name": "title", "type": 5, "optional": "yes"}]},
                  {"name": "Item", "attributes": {"name": "x"}, "relationships": [42]},
                  "Memo"
                ]}
                """#)
        let byPath = Dictionary(found.map { ($0.message, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(found.count == 5, "\(found)")
        #expect(byPath.keys.contains { $0.contains("expected a string, found 5") && $0.contains("entities[0].attributes[0].type") })
        #expect(byPath.keys.contains { $0.contains("expected true or false, found \"yes\"") && $0.contains("entities[0].attributes[0].optional") })
        #expect(byPath.keys.contains { $0.contains("expected an array, found an object") && $0.contains("entities[1].attributes") })
        #expect(byPath.keys.contains { $0.contains("expected an object, found 42") && $0.contains("entities[1].relationships[0]") })
        #expect(byPath.keys.contains { $0.contains("expected an object, found \"Memo\"") && $0.contains("entities[2]") })
    }

    @Test func missingRequiredFields() {
        let found = problems(in: modelText(#"{"attributes": [{"type": "string"}, {"name": "title"}], "relationships": [{"name": "next"}]}"#))
        let messages = found.map(\.description)
        #expect(found.count == 4, "\(found)")
        #expect(messages.contains { $0.contains("missing required field \"name\" (at entities[0])") })
        #expect(messages.contains { $0.contains("missing required field \"name\" (at entities[0].attributes[0])") })
        #expect(messages.contains { $0.contains("missing required field \"type\" (at entities[0].attributes[1])") })
        #expect(messages.contains { $0.contains("missing required field \"destination\" (at entities[0].relationships[0])") })
    }

    @Test(arguments: ["[]", "{}", #"{"entities": {}}"#, #"{"entities": []}"#, "42"])
    func unusableRoots(text: String) {
        let found = problems(in: text)
        #expect(found.count == 1, "\(found)")
    }

    @Test func everyProblemIsReportedAtOnce() {
        let found = problems(
            in: modelText(
                #"{"name": "Note", "attributes": [{"name": "id", "type": "uuid", "userInfo": {"rebuild": "now"}}, {"name": "title", "type": "strin"}, {"name": "count", "type": "integer", "default": "zero"}], "relationships": [{"name": "items", "destination": "Itme", "toMany": true}, {"name": "next", "destination": "Note", "ordered": true, "userInfo": {"clone": "share"}}]}"#,
                #"{"name": "Note", "collection": "other"}"#))
        #expect(found.count == 6, "\(found)")
        let located = Set(found.map { "\($0.entity ?? "-").\($0.property ?? "-")" })
        #expect(located == ["Note.id", "Note.title", "Note.count", "Note.items", "Note.next", "Note.-"])
        do {
            _ = try load(modelText(#"{"name": "_A"}"#, #"{"name": "_B"}"#))
            Issue.record("loading should fail")
        } catch let error as ModelError {
            #expect(error.problems.count == 2)
            #expect(error.description.split(separator: "\n").count == 3, "a header and one line per problem: \(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func problemsAreListedInFileOrder() {
        // The cross-entity problem of the first entity is found after the shape problem of the
        // second, but is listed first.
        let found = problems(
            in: modelText(
                #"{"name": "Alpha", "relationships": [{"name": "beta", "destination": "Bteа"}]}"#,
                #"{"name": "Beta", "attributes": [{"name": "n", "type": "float"}]}"#))
        #expect(found.map(\.entity) == ["Alpha", "Beta"])
        #expect(found.last?.message.contains("(did you mean \"double\"?)") == true)
    }

    @Test func distinctRuleKeysAreRequired() {
        let found = problems(in: modelText(#"{"name": "Note"}"#), keys: CloneRuleKeys(exclude: "x", rebuild: "x"))
        #expect(found.count == 1)
        #expect(found.first?.message.contains("distinct") == true)
    }
}
