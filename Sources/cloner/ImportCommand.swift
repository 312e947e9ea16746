import ArgumentParser
import ClonerClone
import ClonerModel
import ClonerService
import ClonerStore
import ClonerTravel
import Foundation

/// `cloner import COLLECTION`: what `POST /{collection}/import` does, straight on a store: the
/// document is read from a file or standard input a piece at a time, checked line by line, then
/// written in one transaction; the clone answer goes to standard output.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Create the graph of a graph document (from cloner export or GET …/export) with new ids; with --all, fill an empty store.",
        discussion: "Exits 0 with the answer on standard output; 1 with the problem on standard error, having written nothing.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(parsing: .upToNextOption, help: "Properties to leave out, as a clone's exclude.")
    var exclude: [String] = []
    @Option(name: [.short, .customLong("input")], help: "Document to read (default: standard input).")
    var input: String?
    @Flag(name: .customLong("dry-run"), help: "Count and report conflicts; write nothing.")
    var dryRun = false
    @Flag(name: .customLong("return-ids"), help: "Answer the old → new _id map.")
    var returnIDs = false
    @Flag(name: .customLong("create-missing"), help: "Create shared objects the store lacks instead of refusing.")
    var createMissing = false

    @Flag(help: "Import a whole-store document (cloner export --all) into an empty store, keeping _ids.")
    var all = false

    @Argument(help: "The collection of the document's root (e.g. notes).")
    var collection: String?

    func validate() throws {
        if all, collection != nil || dryRun || returnIDs || createMissing || !exclude.isEmpty {
            throw ValidationError("--all imports a whole store as it is: give no collection, --exclude, --dry-run, --return-ids or --create-missing")
        }
        if !all, collection == nil { throw ValidationError("give the collection of the document's root, or --all") }
    }

    func run() throws {
        if all { return try StoreMove.importAll(storeOptions, input: input) }
        guard let collection else { return }
        let (configuration, model, store) = try TravelCommandSupport.open(storeOptions)
        guard let entity = model.entity(forCollection: collection) else {
            throw ValidationError("no collection named \(collection); the collections are \(model.entities.map(\.collection).joined(separator: ", "))")
        }
        let options = GraphImportOptions(
            dryRun: dryRun, returnIDs: returnIDs, createMissing: createMissing, exclude: exclude,
            maximumObjects: configuration.maxObjectsPerClone, maximumValueBytes: configuration.http.maxBodyLength)
        do {
            var importer = try GraphImporter(schema: store.schema, root: entity, options: options)
            let handle: FileHandle
            if let input, input != "-" {
                handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
            } else {
                handle = FileHandle.standardInput
            }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try importer.feed(Array(chunk))
            }
            try importer.finish()
            let outcome = try store.write { context in try importer.run(in: context, now: Date()) }
            FileHandle.standardOutput.write(Data(outcome.jsonBytes() + [UInt8(ascii: "\n")]))
        } catch let error as GraphImportError {
            FileHandle.standardError.write(Data("cloner import: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as CloneError {
            FileHandle.standardError.write(Data("cloner import: \(error)\n".utf8))
            throw ExitCode(1)
        } catch let error as StoreError {
            FileHandle.standardError.write(Data("cloner import: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
