import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// Integers in an import document are the client's: of any length, in every place a document
/// holds one (an object's ref, its parent's, a to-one, a to-many list, an attribute). Each is read
/// or refused naming its line and field — never a trap that takes the process down with every
/// request in flight. Both stores.
@Suite struct GraphImportIntegerTests {
    static let header = GraphImportLineFormsTests.header
    static let end = #"{"kind":"end","objects":3,"references":0}"#
    static let past = "9223372036854775808"
    static let long = String(repeating: "9", count: 1000)

    static func thing(ref: String, parent: String = "1", box: String = "1", i: String = "1") -> String {
        #"{"kind":"object","entity":"Thing","ref":\#(ref),"parent":{"entity":"Box","ref":\#(parent)},"attributes":{"i":\#(i)},"relationships":{"box":\#(box)}}"#
    }

    static func box(things: String) -> String {
        #"{"kind":"object","entity":"Box","ref":1,"parent":null,"attributes":{"name":"box"},"relationships":{"things":[\#(things)]}}"#
    }

    @Test(arguments: StoreBackendKind.available) func theLargestAndSmallestRefsAreLabelsLikeAnyOther(_ kind: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: GraphImportLineFormsTests.model, kind)
        let lines = [
            Self.header, Self.box(things: "-9223372036854775808,9223372036854775807"),
            Self.thing(ref: "-9223372036854775808", i: "-9223372036854775808"),
            Self.thing(ref: "9223372036854775807", i: "9223372036854775807"), Self.end,
        ]
        let outcome = try GraphImportLineFormsTests.importing(lines, into: fixture)
        let ids = try #require(outcome.result.ids?["Thing"])
        let smallest = try fixture.object("Thing", try #require(ids[.min])).attributes
        let largest = try fixture.object("Thing", try #require(ids[.max])).attributes
        #expect(smallest["i"] == .integer(.min))
        #expect(largest["i"] == .integer(.max))
        #expect(Set(try fixture.toMany("Box", try #require(outcome.result.ids?["Box"]?[1]), "things")) == Set(ids.values))
    }

    /// A document whose line `line` holds an integer past Int64 at `field`.
    static let refusals: [(lines: [String], line: Int, field: String)] = [
        ([header, box(things: "2"), thing(ref: past), end], 3, "ref"),
        ([header, box(things: "2"), thing(ref: "-9223372036854775809"), end], 3, "ref"),
        ([header, box(things: "2"), thing(ref: "99999999999999999999"), end], 3, "ref"),
        ([header, box(things: "2"), thing(ref: long), end], 3, "ref"),
        ([header, box(things: "2"), thing(ref: "2", parent: past), end], 3, "parent"),
        ([header, box(things: "2"), thing(ref: "2", box: past), end], 3, "relationships.box"),
        ([header, box(things: "2"), thing(ref: "2", i: long), end], 3, "attributes.i"),
        ([header, box(things: "2, \(long)"), thing(ref: "2"), end], 2, "relationships.things"),
        ([header, box(things: "2"), thing(ref: "2"), #"{"kind":"end","objects":\#(past),"references":0}"#], 4, "objects"),
        ([header.replacingOccurrences(of: #""ref":1}"#, with: #""ref":\#(past)}"#), box(things: "2"), thing(ref: "2"), end], 1, "root"),
    ]

    @Test(arguments: StoreBackendKind.available, refusals.indices)
    func anIntegerPastInt64IsRefusedNamingItsLineAndField(_ kind: StoreBackendKind, _ index: Int) throws {
        let fixture = try CloneFixture(modelJSON: GraphImportLineFormsTests.model, kind)
        let refusal = Self.refusals[index]
        do {
            _ = try GraphImportLineFormsTests.importing(refusal.lines, into: fixture)
            Issue.record("a document with an integer past Int64 was taken: \(refusal.lines[refusal.line - 1].prefix(200))")
        } catch GraphImportError.badLine(let line, let field, let message, _) {
            #expect(line == refusal.line, "\(message)")
            #expect(field == refusal.field, "\(message)")
        }
        #expect(try fixture.ids("Thing").isEmpty)
        #expect(try fixture.ids("Box").isEmpty)
    }
}
