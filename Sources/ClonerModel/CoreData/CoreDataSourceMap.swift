/// Where each part of a mapped Core Data model sits in its `contents` file, so that a problem the
/// model file's checks find is reported in the terms of the XML the author has — the file, the line
/// of the element, the field as Xcode's inspector labels it — and not by a path into the JSON form
/// the author never saw.
struct CoreDataSourceMap: Sendable {
    var contentsPath: String
    /// The line of the element each JSON path (`entities[0]`, `entities[0].attributes[2]`) was mapped from.
    var lines: [String: Int] = [:]

    /// The JSON fields by the label of Xcode's data model inspector that sets them.
    static let fieldLabels: [String: String] = [
        "name": "Name", "type": "Type", "bits": "Type", "optional": "Optional", "default": "Default Value",
        "unique": "Constraints", "uniqueTogether": "Constraints", "originalName": "Renaming ID", "renamingID": "Renaming ID",
        "destination": "Destination", "toMany": "Type", "ordered": "Ordered", "inverse": "Inverse", "deleteRule": "Delete Rule",
        "collection": "User Info key collection", "parent": "Parent Entity", "abstract": "Abstract Entity",
    ]

    /// `contents:12`, the file and line an editor opens.
    func location(line: Int) -> String { "\(contentsPath):\(line)" }

    /// The element a JSON path is in (`entities[0].attributes[2]`), and the path's rest (`default`).
    private static func split(_ path: String) -> (element: String, rest: ArraySlice<String>) {
        let components = path.split(separator: ".").map(String.init)
        var element = "", rest = components[...]
        if let first = rest.first, first.hasPrefix("entities[") {
            element = first
            rest = rest.dropFirst()
            if let second = rest.first, second.hasPrefix("attributes[") || second.hasPrefix("relationships[") {
                element += "." + second
                rest = rest.dropFirst()
            }
        }
        return (element, rest)
    }

    func line(ofJSONPath path: String) -> Int? { lines[Self.split(path).element] }

    /// `contents:12, Default Value` for `entities[0].attributes[2].default`; the file alone for a
    /// path of the whole model.
    func location(ofJSONPath path: String) -> String {
        let (element, rest) = Self.split(path)
        guard let line = lines[element] else { return contentsPath }
        guard let field = rest.first.map({ String($0.prefix { $0 != "[" }) }) else { return location(line: line) }
        if field == "userInfo", rest.count > 1 { return "\(location(line: line)), User Info key \(rest[rest.startIndex + 1])" }
        return "\(location(line: line)), \(Self.fieldLabels[field] ?? field)"
    }

    /// `problem` located in the XML: its JSON path replaced by the line and field, and the paths of
    /// other elements it mentions ("first at entities[0]") by their lines.
    func locate(_ problem: ModelProblem) -> ModelProblem {
        guard let path = problem.jsonPath else { return problem }
        var message = problem.message
        let suffix = " (at \(path))"
        if message.hasSuffix(suffix) { message.removeLast(suffix.count) }
        for (elementPath, line) in lines where message.contains(elementPath) {
            message = message.replacingOccurrences(of: "at \(elementPath))", with: "at line \(line))")
        }
        var located = ModelProblem(entity: problem.entity, property: problem.property, message: "\(message) (at \(location(ofJSONPath: path)))")
        located.line = line(ofJSONPath: path)
        return located
    }
}
