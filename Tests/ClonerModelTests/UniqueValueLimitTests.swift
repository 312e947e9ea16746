import Testing
import ClonerModel

/// The byte limit of values guarded by a unique index, shared by the index's variable-length members.
@Suite struct UniqueValueLimitTests {
    @Test func theVariableLengthMembersOfOneIndexShareItsBytes() {
        let entity = EntityDescription(
            name: "Person",
            attributes: [
                AttributeDescription(name: "email", type: .string, isUnique: true),
                AttributeDescription(name: "first", type: .string),
                AttributeDescription(name: "last", type: .string),
                AttributeDescription(name: "photo", type: .binary),
                AttributeDescription(name: "age", type: .integer, isUnique: true),
                AttributeDescription(name: "note", type: .string),
            ], uniqueTogether: [["first", "last", "age"], ["first", "photo", "last"]])
        let limit = { (name: String) in entity.uniqueValueByteLimit(entity.attribute(named: name)!) }
        #expect(limit("email") == 2000)
        #expect(limit("first") == 666)
        #expect(limit("last") == 666)
        #expect(limit("photo") == 666)
        #expect(limit("age") == nil)
        #expect(limit("note") == nil)
    }
}
