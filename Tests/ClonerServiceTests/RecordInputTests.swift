import ClonerModel
@testable import ClonerService
import Foundation
import Testing

@Suite struct RecordInputTests {
    var note: EntityDescription { sampleModel.entity(named: "Note")! }
    var item: EntityDescription { sampleModel.entity(named: "Item")! }

    func decode(_ json: String, entity: EntityDescription? = nil, mode: RecordInput.Mode = .create) throws(RecordDecodingError) -> RecordInput {
        try RecordInput.decode(Array(json.utf8), entity: entity ?? note, model: sampleModel, mode: mode)
    }

    func fieldErrors(_ json: String, entity: EntityDescription? = nil, mode: RecordInput.Mode = .create) -> [FieldError] {
        do {
            _ = try decode(json, entity: entity, mode: mode)
            return []
        } catch {
            guard case .invalidFields(let errors) = error else { return [FieldError(field: "<json>", message: error.description)] }
            return errors
        }
    }

    @Test func createFillsDefaultsAndNulls() throws {
        let input = try decode(#"{"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "createDate": "2026-11-21T20:15:29.123Z", "name": "N"}"#)
        #expect(input.mode == .create)
        #expect(input.entity == "Note")
        #expect(input.attributes["name"] == .string("N"))
        #expect(input.attributes["index"] == .integer(0), "default filled in")
        #expect(input.attributes["pinned"] == .boolean(false))
        #expect(input.attributes["data"] == .null, "absent optional is null")
        #expect(input.attributes.count == note.attributes.count)
        #expect(input.relationships.isEmpty)
        #expect(input.createdObjectCount == 1)
    }

    @Test func updateKeepsOnlyGivenFieldsAndIgnoresServiceKeys() throws {
        let input = try decode(#"{"_id": 42, "_entity": "Note", "_version": 3, "index": 5}"#, mode: .update)
        #expect(input.attributes == ["index": .integer(5)])
        #expect(input.relationships.isEmpty)
        #expect(input.createdObjectCount == 0)
    }

    @Test func relationshipsAcceptIdsNullAndNestedObjects() throws {
        let input = try decode(
            #"""
            {"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "createDate": "2026-11-21T20:15:29Z",
             "items": [5, {"name": "new item"}, 6], "tags": []}
            """#)
        guard case .toMany(let items)? = input.relationships["items"] else {
            Issue.record("items missing")
            return
        }
        #expect(items.count == 3)
        #expect(items[0] == .existing(5))
        #expect(items[2] == .existing(6))
        guard case .new(let nested) = items[1] else {
            Issue.record("items[1] is not nested")
            return
        }
        #expect(nested.entity == "Item")
        #expect(nested.mode == .create)
        #expect(nested.path == "items[1]")
        #expect(nested.linkedToParentThrough == "note", "the required inverse is set by the parent, not reported missing")
        #expect(nested.attributes["name"] == .string("new item"))
        #expect(input.relationships["tags"] == .toMany([]))
        #expect(input.createdObjectCount == 2)

        let toOne = try decode(#"{"note": 9, "name": "x"}"#, entity: item)
        #expect(toOne.relationships["note"] == .toOne(.existing(9)))
    }

    @Test func collectsEveryFieldErrorSortedByPath() {
        let errors = fieldErrors(
            #"""
            {"index": 1.5, "pinned": 1, "colour": "red", "_id": 3, "data": "***",
             "items": [{"name": 3, "note": 1, "bogus": true}, "x", 7, 7], "tags": 4}
            """#)
        let fields = errors.map(\.field)
        #expect(
            fields == [
                "_id", "colour", "createDate", "data", "id", "index", "items[0].bogus", "items[0].name", "items[0].note", "items[1]", "items[3]", "pinned",
                "tags",
            ], "\(errors)")
        let byField = Dictionary(errors.map { ($0.field, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(byField["colour"]?.contains("Note has no attribute or relationship named \"colour\"") == true)
        #expect(byField["createDate"]?.contains("required date attribute is missing") == true)
        #expect(byField["index"]?.contains("expected an integer, got 1.5") == true)
        #expect(byField["pinned"]?.contains("expected true or false, got 1") == true)
        #expect(byField["items[0].note"]?.contains("enclosing object") == true)
        #expect(byField["items[1]"]?.contains("Item _id") == true)
        #expect(byField["items[3]"]?.contains("listed twice") == true)
        #expect(byField["tags"]?.contains("expected an array") == true)
    }

    @Test func nullRules() {
        #expect(fieldErrors(#"{"index": null}"#, mode: .update).map(\.field) == ["index"])
        #expect(fieldErrors(#"{"name": null}"#, mode: .update).isEmpty)
        #expect(fieldErrors(#"{"note": null}"#, entity: item, mode: .update).map(\.message) == ["must not be null"])
        #expect(fieldErrors(#"{"name": "x"}"#, entity: item).map(\.message) == ["required relationship to Note is missing"])
    }

    @Test func nestedObjectsCannotCarryAnIdOrTheWrongEntity() {
        let errors = fieldErrors(#"{"note": {"_id": 4}, "_entity": "Note"}"#, entity: item)
        #expect(errors.map(\.field) == ["_entity", "note._id", "note.createDate", "note.id"], "\(errors)")
        #expect(errors[1].message.contains("plain integer"))
    }

    @Test func notJSONIsA400AndNotAnObjectIsA422() {
        do {
            _ = try decode("{\"name\": ")
            Issue.record("no error")
        } catch {
            #expect(error.problem.status == 400)
            #expect(error.problem.code == .invalidJSON)
        }
        do {
            _ = try decode("[1]")
            Issue.record("no error")
        } catch {
            #expect(error.problem.status == 422)
            #expect(error.problem.errors?.first?.message.contains("must be a JSON object") == true)
            #expect(error.problem.errors?.first?.message.hasSuffix("got an array") == true)
            #expect(error.problem.field == FieldError.body)
        }
    }

    @Test func deepNestingIsRefused() throws {
        // A self-referential tree (Folder.children / Folder.parent) nests without limit in JSON.
        let folder = EntityDescription(
            name: "Folder", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)],
            relationships: [
                RelationshipDescription(name: "children", destination: "Folder", isToMany: true, inverseName: "parent"),
                RelationshipDescription(name: "parent", destination: "Folder", inverseName: "children"),
            ])
        let model = DataModel(entities: [folder])
        func nested(_ levels: Int) -> String {
            var json = #"{"title": "leaf"}"#
            for _ in 0..<levels { json = #"{"children": [\#(json)]}"# }
            return json
        }
        let allowed = try RecordInput.decode(Array(nested(RecordInput.maximumNesting - 1).utf8), entity: folder, model: model, mode: .create)
        #expect(allowed.createdObjectCount == RecordInput.maximumNesting)
        do {
            _ = try RecordInput.decode(Array(nested(RecordInput.maximumNesting).utf8), entity: folder, model: model, mode: .create)
            Issue.record("no error")
        } catch {
            guard case .invalidFields(let errors) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(errors.count == 1)
            #expect(errors[0].message.contains("deeper than 32 levels"))
            #expect(errors[0].field.hasPrefix("children[0].children[0]."))
        }
    }
}
