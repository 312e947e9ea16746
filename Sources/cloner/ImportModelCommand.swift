import ArgumentParser
import ClonerModel
import Foundation

/// `cloner import-model PATH`: prints a Core Data model as a Cloner model file, for a team that
/// wants the JSON under review beside its Xcode model, or a hand edit Xcode cannot make.
struct ImportModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-model",
        abstract: "Print a Core Data model (.xcdatamodeld, .xcdatamodel or contents) as a Cloner model file.",
        discussion: """
            Writes the model file (JSON) on standard output; loading it gives the same model as loading the \
            Core Data model itself. Exits 1, listing every problem (each naming entity and property), when \
            the model uses what Cloner cannot represent or breaks a rule.
            """)

    @Argument(help: "Path of the Core Data model: a .xcdatamodeld or .xcdatamodel folder, or its contents file.", completion: .file())
    var path: String

    @OptionGroup var rules: RuleKeyOptions

    func run() throws {
        let keys = try rules.keys()
        let url = URL(fileURLWithPath: path)
        guard CoreDataModelReader.isCoreDataModel(url) else {
            FileHandle.standardError.write(
                Data("\(path): not a Core Data model (expected a .xcdatamodeld or .xcdatamodel folder, or an XML contents file)\n".utf8))
            throw ExitCode(1)
        }
        do {
            let document = try ModelLoader.importCoreDataModel(contentsOf: url, keys: keys)
            print(document.prettyText)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
