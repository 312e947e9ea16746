import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// Random mutations of a valid import document — integers of any length put where numbers
/// stand, bytes replaced, ranges dropped or repeated — each either imports or is refused; none
/// traps (a trap would end the test process, as it would end the service), and a refused one
/// leaves the store as it was. Bounded in count and time, so CI runs it every time; the seed is
/// printed with a failure so the mutant can be replayed.
@Suite struct GraphImportFuzzTests {
    static let document: [UInt8] = Array(
        [
            GraphImportLineFormsTests.header, GraphImportLineFormsTests.box,
            #"{"kind":"object","entity":"Thing","ref":1,"parent":{"entity":"Box","ref":1},"attributes":{"s":"one","i":7,"d":2.5,"b":true,"#
                + #""t":"2020-01-02T03:04:05.006Z","u":"0f0e0d0c-0b0a-4908-8706-050403020100","bin":"AQID","j":{"a":[1,-2,3.5]}},"relationships":{"box":1}}"#,
            #"{"kind":"object","entity":"Thing","ref":2,"parent":{"entity":"Box","ref":1},"attributes":{"i":-12,"d":-1.5e-3},"relationships":{"box":1}}"#,
            #"{"kind":"object","entity":"Thing","ref":3,"attributes":{"s":null,"i":0},"relationships":{"box":null}}"#,
            #"{"kind":"end","objects":4,"references":0}"#,
        ].joined(separator: "\n").utf8)

    /// An integer literal of 1 to 30 digits, now and then hundreds; sometimes negative.
    static func integer(using generator: inout SeededGenerator) -> [UInt8] {
        let length = Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 31...400, using: &generator) : Int.random(in: 1...30, using: &generator)
        var digits = [UInt8(ascii: "1") + UInt8.random(in: 0...8, using: &generator)]
        for _ in 1..<length { digits.append(UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator)) }
        return Bool.random(using: &generator) ? [UInt8(ascii: "-")] + digits : digits
    }

    static func mutant(of document: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = document
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let at = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1:
                // A run of digits (with its sign) replaced by another integer.
                let digits = bytes.indices.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
                guard let start = digits.randomElement(using: &generator) else { continue }
                var end = start
                while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                let from = start > 0 && bytes[start - 1] == UInt8(ascii: "-") ? start - 1 : start
                bytes.replaceSubrange(from..<end, with: integer(using: &generator))
            case 2:
                bytes[at] = Array(#"{}[],:-09e."\ an"#.utf8).randomElement(using: &generator)!
            case 3:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...20, using: &generator)))
            case 4:
                bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + Int.random(in: 1...40, using: &generator))], at: at)
            default:
                bytes.insert(contentsOf: integer(using: &generator), at: at)
            }
            if bytes.isEmpty { bytes = document }
        }
        return bytes
    }

    /// What a run of mutants came to: how many imported, how many were refused, and each refused
    /// one that wrote anything all the same.
    struct Outcome: Sendable {
        var imported = 0
        var refused = 0
        var wroteWhenRefused: [String] = []
    }

    /// The mutants of `seed` imported into a new store of `kind`, for at most 500 documents or 3 s.
    static func run(_ kind: StoreBackendKind, seed: UInt64) throws -> Outcome {
        let fixture = try CloneFixture(modelJSON: GraphImportLineFormsTests.model, kind)
        let box = fixture.store.model.entity(named: "Box")!
        var generator = SeededGenerator(state: seed)
        let deadline = ContinuousClock.now + .seconds(3)
        var outcome = Outcome()
        while outcome.imported + outcome.refused < 500, ContinuousClock.now < deadline {
            let bytes = Self.mutant(of: Self.document, using: &generator)
            let before = (try fixture.ids("Box").count, try fixture.ids("Thing").count)
            do {
                var importer = try GraphImporter(schema: fixture.store.schema, root: box, options: GraphImportOptions())
                try importer.feed(bytes)
                try importer.finish()
                _ = try fixture.store.write { try importer.run(in: $0, now: Date()) }
                outcome.imported += 1
            } catch {
                outcome.refused += 1
                let after = (try fixture.ids("Box").count, try fixture.ids("Thing").count)
                if after != before { outcome.wroteWhenRefused.append("\(after) over \(before): \(error)") }
            }
        }
        return outcome
    }

    /// The loop runs on a thread of its own: it is CPU work for seconds, and on the cooperative
    /// pool (two threads here) it would stall every other suite's tasks meanwhile.
    @Test(arguments: StoreBackendKind.available) func mutatedDocumentsAreReadOrRefusedNeverTrap(_ kind: StoreBackendKind) async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        let outcome = try await Blocking.run { try Self.run(kind, seed: seed) }
        #expect(outcome.wroteWhenRefused.isEmpty, "seed \(seed): refused documents wrote: \(outcome.wroteWhenRefused.prefix(3))")
        // The unmutated shape imports, and so some mutants do (a changed digit in a value).
        #expect(outcome.imported > 0 && outcome.refused > 0, "seed \(seed): \(outcome.imported) imported, \(outcome.refused) refused")
    }
}
