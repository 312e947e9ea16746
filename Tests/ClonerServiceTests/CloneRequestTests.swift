import ClonerModel
@testable import ClonerService
import Testing

@Suite struct CloneRequestTests {
    var note: EntityDescription { sampleModel.entity(named: "Note")! }

    func decode(_ json: String) throws(RecordDecodingError) -> CloneRequest {
        try CloneRequest.decode(Array(json.utf8), root: note, model: sampleModel)
    }

    func errors(_ json: String) -> [FieldError] {
        do {
            _ = try decode(json)
            return []
        } catch {
            guard case .invalidFields(let errors) = error else { return [FieldError(field: "<json>", message: error.description)] }
            return errors
        }
    }

    @Test func emptyBodyMeansDefaults() throws {
        #expect(try decode("") == CloneRequest())
        #expect(try decode(" \n") == CloneRequest())
        #expect(try decode("{}") == CloneRequest())
    }

    @Test func decodesEveryOption() throws {
        let request = try decode(#"""
            {"exclude": ["data", "Item.note", "data"], "set": {"name": "Copy", "index": 2, "tags": [3, 4]},
             "dryRun": true, "returnIds": true}
            """#)
        #expect(request.exclusions == [
            .init(entity: "Note", property: "data", isQualified: false),
            .init(entity: "Item", property: "note", isQualified: true),
        ])
        #expect(request.set == ["name": .string("Copy"), "index": .integer(2)])
        #expect(request.setRelationships == ["tags": .toMany([3, 4])])
        #expect(request.dryRun && request.returnIds)
        #expect(request.excludes(entity: "Note", property: "data", isRoot: true))
        #expect(!request.excludes(entity: "Note", property: "data", isRoot: false), "a bare name applies to the root only")
        #expect(request.excludes(entity: "Item", property: "note", isRoot: false))
    }

    @Test func namesEveryBadEntry() {
        let found = errors(#"""
            {"exclude": ["colour", "Widget.x", "Item.colour", "a.b.c", 5], "set": {"colour": 1, "index": "two", "createDate": null, "items": [1, 1]},
             "dryRun": "yes", "extra": 1}
            """#)
        let byField = Dictionary(found.map { ($0.field, $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(byField["exclude[0]"]?.contains("Note has no attribute or relationship named \"colour\"") == true)
        #expect(byField["exclude[1]"]?.contains("no entity named \"Widget\"") == true)
        #expect(byField["exclude[2]"]?.contains("Item has no attribute or relationship named \"colour\"") == true)
        #expect(byField["exclude[3]"]?.contains("Entity.property") == true)
        #expect(byField["exclude[4]"]?.contains("expected a property name, got 5") == true)
        #expect(byField["set.colour"]?.contains("no attribute or relationship") == true)
        #expect(byField["set.index"]?.contains("expected an integer") == true)
        #expect(byField["set.createDate"] == "must not be null")
        #expect(byField["set.items[1]"]?.contains("listed twice") == true)
        #expect(byField["dryRun"]?.contains("true or false") == true)
        #expect(byField["extra"]?.contains("unknown field") == true)
        #expect(found.count == 11, "\(found)")
    }

    @Test func malformedJSONIsA400() {
        do {
            _ = try decode("{")
            Issue.record("no error")
        } catch {
            #expect(error.problem.status == 400)
        }
    }
}
