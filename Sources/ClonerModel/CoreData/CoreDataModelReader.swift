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
        /// Where each mapped element sits in `contentsPath`, to word later problems in the XML's terms.
        var sourceMap: CoreDataSourceMap
    }

    /// What Xcode builds from a model into an app bundle: a compiled model, not its source.
    static let compiledExtensions: Set<String> = ["momd", "mom", "omo"]

    /// Whether `url` names a Core Data model rather than a JSON model file: a bundle folder by its
    /// extension, or a file whose first bytes are XML. A compiled model (`.momd`, `.mom`, or any
    /// binary property list) counts too, so that reading it says what it is instead of "malformed JSON".
    public static func isCoreDataModel(_ url: URL) -> Bool {
        if ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) || compiledExtensions.contains(url.pathExtension) { return true }
        let head = String(decoding: firstBytes(of: url), as: UTF8.self)
        return head.hasPrefix("bplist") || head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<")
    }

    private static func firstBytes(of url: URL) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 64)) ?? Data()
    }

    /// A compiled model names what it is and what to give instead: its source is in the Xcode project.
    private static func refuseCompiledModel(_ url: URL) throws(ModelError) {
        let compiled = compiledExtensions.contains(url.pathExtension)
        guard compiled || firstBytes(of: url).starts(with: Data("bplist".utf8)) else { return }
        let what =
            compiled
            ? "a compiled Core Data model (.\(url.pathExtension), the binary form Xcode builds into an app bundle)"
            : "a binary property list (a compiled Core Data model .mom is one)"
        throw ModelError(
            path: url.path,
            problems: [
                ModelProblem(
                    message:
                        "this is \(what), not a model Cloner reads; give the model's source instead: the .xcdatamodeld folder from the Xcode project (or a .xcdatamodel folder in it)"
                )
            ])
    }

    public static func read(contentsOf url: URL) throws(ModelError) -> Reading {
        try refuseCompiledModel(url)
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
        var mapper = CoreDataModelMapper(contentsPath: contents.path)
        let document = mapper.map(root)
        return Reading(document: document, refusals: mapper.refusals, contentsPath: contents.path, sourceMap: mapper.sourceMap)
    }

    /// The `contents` file a path stands for.
    static func contentsFile(for url: URL) throws(ModelError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(path: url.path, problems: [ModelProblem(message: "no such file or folder")])
        }
        guard isDirectory.boolValue else { return url }
        let version = url.pathExtension == "xcdatamodeld" ? try currentVersion(in: url) : url
        let contents = version.appendingPathComponent("contents")
        guard !FileManager.default.fileExists(atPath: contents.path) else { return contents }
        // Xcode 3 and older kept a version as the binary archives `elements` and `layout`; Xcode 4
        // and later write the `contents` XML, and convert an old model when they save it.
        let message =
            FileManager.default.fileExists(atPath: version.appendingPathComponent("elements").path)
            ? "this model version was saved by Xcode 3 or older (a binary elements file, no contents XML); open the model in a current Xcode and save it, which writes the contents file Cloner reads"
            : "no contents file: a model version that Xcode saved holds its model in a contents XML file; give the .xcdatamodeld folder from the Xcode project"
        throw ModelError(path: version.path, problems: [ModelProblem(message: message)])
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
