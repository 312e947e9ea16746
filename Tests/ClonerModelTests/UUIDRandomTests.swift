import ClonerModel
import Foundation
import Testing

struct UUIDRandomTests {
    /// Version 4 and the RFC variant in every one, and no repeats: the bits are set over random
    /// bytes, not over a constant.
    @Test func randomUUIDsAreVersion4AndDistinct() {
        var seen: Set<UUID> = []
        for _ in 0..<10_000 {
            let uuid = UUID.random()
            let text = uuid.uuidString.lowercased()
            let characters = Array(text)
            #expect(characters[14] == "4", "version nibble of \(text)")
            #expect("89ab".contains(characters[19]), "variant of \(text)")
            seen.insert(uuid)
        }
        #expect(seen.count == 10_000)
        // Every other nibble varies: across 10,000 UUIDs each position takes many values.
        let texts = seen.map { Array($0.uuidString) }
        for position in texts[0].indices where ![8, 13, 14, 18, 23].contains(position) {
            #expect(Set(texts.map { $0[position] }).count >= (position == 19 ? 4 : 16), "position \(position)")
        }
    }
}
