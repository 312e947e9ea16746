/// The JSON objects a request body holds, counted from its bytes before it is parsed.
///
/// Every object a create or PATCH makes is one JSON object of its body, so this count bounds the
/// work and memory the body can ask for (`maxObjectsPerRequest`) before any of it is spent:
/// parsing builds a value per object, and each becomes a record to insert. Depth is limited
/// elsewhere; this limits width. One pass, no allocation but the name of the widest member.
/// Objects inside `json` attribute values count too: the count is a property of the body.
///
/// Every JSON value is counted as well (`maxValuesPerRequest`): a parsed value costs tens of
/// bytes whatever its text, so a body of small scalars (an array of millions of numbers in a
/// `json` attribute holds no object at all) would otherwise cost many times its own size. For
/// valid JSON the values are one (the body) plus a comma's and a non-empty container's worth each.
struct BodyObjectCount {
    /// Objects below the top level (the body's own object is not counted).
    private(set) var nested = 0
    /// The top-level member holding the most objects, and how many, to name in a refusal.
    private(set) var widestMember = ""
    private(set) var widestCount = 0
    /// Every JSON value of the body, its own included (0 for an empty body).
    private(set) var values = 0
    /// The top-level member holding the most values, and how many.
    private(set) var mostValuesMember = ""
    private(set) var mostValues = 0

    init(_ body: [UInt8]) {
        var depth = 0
        var inString = false
        var escaped = false
        // A container just opened: its first non-blank byte says whether it holds a value.
        var opened = false
        var memberValues = 0
        values = body.isEmpty ? 0 : 1
        func counted(_ added: Int) {
            values += added
            guard depth >= 2 || (depth == 1 && added == 1 && !member.isEmpty) else { return }
            memberValues += added
            if memberValues > mostValues {
                mostValues = memberValues
                if mostValuesMember.utf8.count != member.count || !mostValuesMember.utf8.elementsEqual(member) {
                    mostValuesMember = String(decoding: member, as: UTF8.self)
                }
            }
        }
        // At depth 1, whether the next string is a member name (after `{` or `,`).
        var expectingName = false
        var nameStart = 0
        var member: ArraySlice<UInt8> = []
        var memberCount = 0
        for index in body.indices {
            let byte = body[index]
            if opened, !inString {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D: break
                case UInt8(ascii: "}"), UInt8(ascii: "]"): opened = false
                default:
                    opened = false
                    if depth >= 2 { counted(1) }
                }
            }
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
                        memberValues = 0
                        expectingName = false
                        // The member's value.
                        counted(1)
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
                opened = true
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
                opened = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectingName = true } else if depth >= 2 { counted(1) }
            default:
                break
            }
        }
    }
}
