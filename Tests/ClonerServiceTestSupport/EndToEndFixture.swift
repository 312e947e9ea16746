import ClonerTestSupport
import Foundation

/// Request bodies for the sample model (config/model.json) and small readers for the answers.
package enum EndToEndFixture {
    package static let date = "2026-01-02T03:04:05.678Z"

    package static func uuid() -> String { UUID().uuidString.lowercased() }

    /// A Note with the required attributes; `members` are extra JSON members (`"name":"x", ...`).
    package static func note(_ members: String = "", id: String = uuid()) -> String {
        "{\"id\":\"\(id)\",\"createDate\":\"\(date)\"" + (members.isEmpty ? "" : "," + members) + "}"
    }

    /// A note owning two items (the first with an ItemData), a description and a memo tagged
    /// with a new tag: every kind of relationship of the sample model in one create.
    package static func richNote(name: String, tag: String) -> String {
        note(
            """
            "name":"\(name)",\
            "items":[{"name":"first","itemDatas":[{"value":1.5,"createDate":"\(date)"}]},{"name":"second"}],\
            "noteDescription":{"content":"about \(name)"},\
            "memos":[{"text":"memo","createDate":"\(date)","tags":[{"name":"\(tag)"}]}]
            """)
    }

    package static func int(_ value: Any?) -> Int? {
        if let number = value as? Int { return number }
        if let number = value as? NSNumber { return number.intValue }
        return nil
    }

    package static func ints(_ value: Any?) -> [Int]? {
        guard let array = value as? [Any] else { return nil }
        let numbers = array.compactMap(int)
        return numbers.count == array.count ? numbers : nil
    }

    /// The `field` of every entry of a problem's `errors` list.
    package static func errorFields(_ problem: [String: Any]) -> [String] {
        ((problem["errors"] as? [[String: Any]]) ?? []).compactMap { $0["field"] as? String }
    }

    /// The counts of a clone answer's `created` or `linked` object.
    package static func counts(_ value: Any?) -> [String: Int] {
        ((value as? [String: Any]) ?? [:]).compactMapValues(int)
    }
}
