import ClonerModel
import Foundation
import Testing

/// `UUID(hexUTF8:)`, the store's uuid reader, agrees with `UUID(uuidString:)` wherever it answers,
/// and answers nil (so the caller falls back) for anything that is not the plain 36-character form.
@Suite struct UUIDHexTests {
    private func parse(_ text: String) -> UUID? {
        Array(text.utf8).withUnsafeBufferPointer { UUID(hexUTF8: $0) }
    }

    @Test func agreesWithFoundation() {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(parse(uuid.uuidString) == uuid)
            #expect(parse(uuid.uuidString.lowercased()) == uuid)
        }
        let mixed = "6F1c1b2e-8f0A-4d5e-9a7b-2c3d4e5f6a7B"
        #expect(parse(mixed) == UUID(uuidString: mixed))
        #expect(parse("00000000-0000-0000-0000-000000000000") == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(parse("ffffffff-ffff-ffff-ffff-ffffffffffff") == UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"))
    }

    @Test(arguments: [
        "", "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7", "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7bb",
        "6f1c1b2e_8f0a-4d5e-9a7b-2c3d4e5f6a7b", "6f1c1b2e-8f0a-4d5e-9a7b2-c3d4e5f6a7b",
        "6f1c1b2g-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7\u{e9}",
        " 6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7", "6f1c1b2e8f0a4d5e9a7b2c3d4e5f6a7b----",
    ]) func refusesAnythingElse(_ text: String) {
        #expect(parse(text) == nil)
    }
}
