import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerModel

@Suite struct ModelRobustnessTests {
    /// Mangled copies of the sample model either load or fail with problems — never trap. The
    /// mutations are the ones hand edits make: a byte dropped, duplicated, replaced or a token swapped.
    @Test func mutatedModelsNeverCrash() throws {
        let original = Array(try Data(contentsOf: sampleModelURL))
        let tokens = Array(#"{}[]",:0-1.e"tru\ ntfalsnull"#.utf8) + [0x00, 0xFF, 0x0A]
        let words = ["\"uuid\"", "\"Note\"", "true", "null", "\"share\"", "\"items\"", "[]", "{}", "\"blank\"", "\"now\"", "1.5"]
        var generator = SeededGenerator(state: 0xC10E)
        var loaded = 0, rejected = 0
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(bytes[position], at: position)
                case 2: bytes[position] = tokens.randomElement(using: &generator)!
                default:
                    // Replace the JSON string starting at the next quote with a plausible other token.
                    guard let start = bytes[position...].firstIndex(of: UInt8(ascii: "\"")),
                        let end = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "\""))
                    else { continue }
                    bytes.replaceSubrange(start...end, with: Array(words.randomElement(using: &generator)!.utf8))
                }
            }
            do {
                let model = try ModelLoader.load(data: Data(bytes))
                // Whatever loaded must survive its own normalisation.
                #expect(try ModelLoader.load(data: Data(model.normalizedText.utf8)) == model)
                loaded += 1
            } catch {
                #expect(!error.problems.isEmpty)
                #expect(error.problems.allSatisfy { !$0.message.isEmpty })
                rejected += 1
            }
        }
        #expect(loaded + rejected == 1500)
        #expect(rejected > 500, "most mutations break the model")
    }
}
