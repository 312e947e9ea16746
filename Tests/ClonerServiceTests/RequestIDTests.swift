import ClonerService
import Testing

@Suite struct RequestIDTests {
    @Test func honoursSafeClientIDs() {
        #expect(RequestID.resolve("abc-123_XYZ.9") == "abc-123_XYZ.9")
        #expect(RequestID.resolve(String(repeating: "a", count: 200)).count == 200)
    }

    @Test(arguments: [nil, "", "has space", "line\nbreak", "tab\t", "é", String(repeating: "a", count: 201)])
    func replacesUnsafeOrMissingIDs(value: String?) {
        let resolved = RequestID.resolve(value)
        #expect(resolved != value)
        #expect(resolved.count == 32)
        #expect(resolved.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func generatedIDsDiffer() {
        let ids = Set((0..<1000).map { _ in RequestID.generate() })
        #expect(ids.count == 1000)
    }
}
