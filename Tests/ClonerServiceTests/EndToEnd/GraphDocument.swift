import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation

/// A graph document (NDJSON) as a test reads it: lines parsed by Foundation, independently of
/// the service, and a normal form that compares two exports up to ids and rebuilt values.
struct GraphDocument {
    let lines: [[String: Any]]

    init(_ text: String) throws {
        lines = try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ClientError("not a JSON object: \(line)")
            }
            return object
        }
    }

    func lines(kind: String) -> [[String: Any]] { lines.filter { $0["kind"] as? String == kind } }

    /// Every line with local references replaced by the order in which their entity's lines
    /// appear, and the values the sample model rebuilds (`Note.id`, every `createDate`,
    /// `Item.noteID`) dropped: two exports of equal graphs give equal normal forms.
    func normalized() -> [NSDictionary] {
        var ordinal: [String: [Int: Int]] = [:]
        for line in lines where line["kind"] as? String == "object" || line["kind"] as? String == "reference" {
            let entity = line["entity"] as? String ?? ""
            let ref = EndToEndFixture.int(line["ref"]) ?? -1
            ordinal[entity, default: [:]][ref] = ordinal[entity]?.count ?? 0
        }
        let header = lines.first?["entities"] as? [String: [String: Any]] ?? [:]
        return lines.map { line in
            var line = line
            let entity = line["entity"] as? String ?? ""
            if let ref = EndToEndFixture.int(line["ref"]) { line["ref"] = ordinal[entity]?[ref] ?? -1 }
            if var parent = line["parent"] as? [String: Any], let ref = EndToEndFixture.int(parent["ref"]) {
                parent["ref"] = ordinal[parent["entity"] as? String ?? ""]?[ref] ?? -1
                line["parent"] = parent
            }
            if var attributes = line["attributes"] as? [String: Any] {
                for name in ["createDate", "noteID"] { attributes.removeValue(forKey: name) }
                if entity == "Note" { attributes.removeValue(forKey: "id") }
                line["attributes"] = attributes
            }
            if line["kind"] as? String == "reference", entity == "Note" { line.removeValue(forKey: "key") }
            if var relationships = line["relationships"] as? [String: Any] {
                let shapes = header[entity]?["relationships"] as? [String: [String: Any]] ?? [:]
                for (name, value) in relationships {
                    let destination = shapes[name]?["destination"] as? String ?? ""
                    if let list = EndToEndFixture.ints(value) {
                        relationships[name] = list.map { ordinal[destination]?[$0] ?? -1 }
                    } else if let ref = EndToEndFixture.int(value) {
                        relationships[name] = ordinal[destination]?[ref] ?? -1
                    }
                }
                line["relationships"] = relationships
            }
            if line["kind"] as? String == "header", var root = line["root"] as? [String: Any] {
                root["ref"] = 0
                line["root"] = root
            }
            return line as NSDictionary
        }
    }
}

extension ServiceClient {
    /// `POST /{collection}/import` with a document.
    func importGraph(
        _ collection: String, _ document: String, query: String = "",
        headers: [(name: String, value: String)] = []
    ) async throws -> ClientResponse {
        try await request(
            "POST", "/\(collection)/import\(query.isEmpty ? "" : "?" + query)",
            headers: [("Content-Type", "application/vnd.cloner.graph+x-ndjson")] + headers, body: document)
    }
}
