import ClonerService
import Testing

@Suite struct EntityTagTests {
    @Test func formatsStrongTags() {
        #expect(EntityTag.header(forVersion: 3) == "\"3\"")
    }

    @Test func ifMatchUsesStrongComparison() {
        #expect(EntityTag.ifMatch("\"3\"", version: 3) == true)
        #expect(EntityTag.ifMatch("\"2\", \"3\"", version: 3) == true)
        #expect(EntityTag.ifMatch("*", version: 3) == true)
        #expect(EntityTag.ifMatch("\"4\"", version: 3) == false)
        #expect(EntityTag.ifMatch("W/\"3\"", version: 3) == false)
        #expect(EntityTag.ifMatch("3", version: 3) == nil, "unquoted is malformed")
        #expect(EntityTag.ifMatch("", version: 3) == nil)
    }

    @Test func ifNoneMatchUsesWeakComparison() {
        #expect(EntityTag.ifNoneMatch("W/\"3\"", version: 3) == true)
        #expect(EntityTag.ifNoneMatch("\"3\"", version: 3) == true)
        #expect(EntityTag.ifNoneMatch("\"1\"", version: 3) == false)
        #expect(EntityTag.ifNoneMatch("*", version: 3) == true)
    }
}
