/// The JSON objects a request body holds, counted from its bytes before it is parsed.
///
/// Every object a create or PATCH makes is one JSON object of its body, so this count bounds the
/// work and memory the body can ask for (`maxObjectsPerRequest`) before any of it is spent:
/// parsing builds a value per object, and each becomes a record to insert. Depth is limited
/// elsewhere; this limits width. One pass, no allocation but the name of the widest member.
/// Objects inside `json` attribute values count too: the count is a property of the body.
struct BodyObjectCount {
    /// Objects below the top level (the body's own object is not counted).
    private(set) var nested = 0
    /// The top-level member holding the most objects, and how many, to name in a refusal.
    private(set) var widestMember = ""
    private(set) var widestCount = 0

    init(_ body: [UInt8]) {
        var depth = 0
        var inString = false
        var escaped = false
        // At depth 1, whether the next string is a member name (after `{` or `,`).
        var expectingName = false
        var nameStart = 0
        var member: ArraySlice<UInt8> = []
        var memberCount = 0
        for index in body.indices {
            let byte = body[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1 && expectingName {
                        member = body[nameStart..<index]
                        memberCount = 0
                        expectingName = false
                    }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                nameStart = index + 1
            case UInt8(ascii: "{"):
                depth += 1
                if depth == 1 {
                    expectingName = true
                } else {
                    nested += 1
                    memberCount += 1
                    if memberCount > widestCount {
                        widestCount = memberCount
                        if widestMember.utf8.count != member.count || !widestMember.utf8.elementsEqual(member) {
                            widestMember = String(decoding: member, as: UTF8.self)
                        }
                    }
                }
            case UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectingName = true }
            default:
                break
            }
        }
    }
}
