import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a Core Data model as Xcode saves it (docs/architecture.md#core-data-models) into the model file's JSON form, so the
/// same decoder and validator judge it as they judge `config/model.json` — one set of rules, one
/// set of messages — and `cloner import-model` can print what it read.
///
/// Input: a `.xcdatamodeld` folder (the version `.xccurrentversion` names, else its only version),
/// a `.xcdatamodel` folder, or its `contents` XML file. What Cloner cannot represent is refused, every
/// case at once, each naming the entity and property — never dropped.
public struct CoreDataModelReader {
    /// What was read: the model-file JSON and the features that could not be carried over.
    public struct Reading: Sendable {
        public var document: JSONValue
        public var refusals: [ModelProblem]
        /// The XML file actually read (inside a `.xcdatamodeld`, the current version's `contents`).
        public var contentsPath: String
    }

    /// Whether `url` names a Core Data model rather than a JSON model file: a bundle folder by its
    /// extension, or a file whose first bytes are XML.
    public static func isCoreDataModel(_ url: URL) -> Bool {
        if ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) { return true }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        return String(decoding: head, as: UTF8.self).drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<")
    }

    public static func read(contentsOf url: URL) throws(ModelError) -> Reading {
        let contents = try contentsFile(for: url)
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ModelError(path: contents.path, problems: [ModelProblem(message: "cannot read the Core Data model: \(error.localizedDescription)")])
        }
        let root = try XMLTreeBuilder.parse(data, path: contents.path)
        guard root.name == "model" else {
            throw ModelError(
                path: contents.path, problems: [ModelProblem(message: "expected a Core Data model (a <model> root element), found <\(root.name)>")])
        }
        var mapper = CoreDataModelMapper()
        let document = mapper.map(root)
        return Reading(document: document, refusals: mapper.refusals, contentsPath: contents.path)
    }

    /// The `contents` file a path stands for.
    static func contentsFile(for url: URL) throws(ModelError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(path: url.path, problems: [ModelProblem(message: "no such file or folder")])
        }
        guard isDirectory.boolValue else { return url }
        if url.pathExtension == "xcdatamodeld" {
            return try currentVersion(in: url).appendingPathComponent("contents")
        }
        return url.appendingPathComponent("contents")
    }

    /// The version `.xccurrentversion` names (`_XCCurrentVersionName`), else the only one there is.
    private static func currentVersion(in bundle: URL) throws(ModelError) -> URL {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if let data = try? Data(contentsOf: marker) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String, !name.isEmpty else {
                throw ModelError(path: marker.path, problems: [ModelProblem(message: "expected a property list naming _XCCurrentVersionName")])
            }
            return bundle.appendingPathComponent(name)
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard versions.count == 1 else {
            let found = versions.isEmpty ? "none" : versions.joined(separator: ", ")
            throw ModelError(
                path: bundle.path,
                problems: [
                    ModelProblem(
                        message: "no .xccurrentversion, so the folder must hold exactly one .xcdatamodel version; found \(found)")
                ])
        }
        return bundle.appendingPathComponent(versions[0])
    }
}
