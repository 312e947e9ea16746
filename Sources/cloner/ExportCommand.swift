import ArgumentParser
import ClonerClone
import ClonerModel
import ClonerService
import ClonerStore
import ClonerTravel
import Foundation

/// `cloner export COLLECTION ID`: the document `GET /{collection}/{id}/export` answers, written
/// straight from a store (no server) to a file or standard output.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the graph a clone of one object would copy, as a graph document (NDJSON); with --all, the whole store.",
        discussion: """
            Reads the store the settings name (--config, CLONER_* variables, or --database and --model), in one read transaction. \
            --all writes every record, blob and link with its _id for cloner import --all, and prints each table's count and checksum; \
            the service's jobs, idempotency answers and leases are not moved.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(parsing: .upToNextOption, help: "Properties to leave out, as a clone's exclude: bare names for the root, Entity.property everywhere.")
    var exclude: [String] = []
    @Option(name: [.short, .customLong("output")], help: "File to write (default: standard output).")
    var output: String?

    @Flag(help: "Export the whole store (every record, with its _id), to move it into another store.")
    var all = false

    @Argument(help: "The root's collection (its URL segment, e.g. notes).")
    var collection: String?
    @Argument(help: "The root's _id.")
    var id: Int64?

    func validate() throws {
        if all, collection != nil { throw ValidationError("--all exports the whole store; give no collection or id") }
        if !all, collection == nil || id == nil { throw ValidationError("give the root's collection and _id, or --all") }
    }

    func run() throws {
        if all { return try StoreMove.exportAll(storeOptions, output: output) }
        guard let collection, let id else { return }
        let (configuration, model, store) = try TravelCommandSupport.open(storeOptions)
        guard let entity = model.entity(forCollection: collection) else {
            throw ValidationError("no collection named \(collection); the collections are \(model.entities.map(\.collection).joined(separator: ", "))")
        }
        let plan = try ClonePlan(
            request: CloneRequest(
                entity: entity.name, id: id, exclude: exclude,
                maximumObjects: configuration.maxObjectsPerClone), schema: store.schema)
        let handle = try TravelCommandSupport.outputHandle(output)
        let summary = try store.read { context in
            try GraphExporter(plan: plan).run(in: context) { bytes in try handle.write(contentsOf: bytes) }
        }
        try handle.synchronize()
        FileHandle.standardError.write(Data("exported \(summary.objects) objects and \(summary.references) references (\(summary.bytes) bytes)\n".utf8))
    }
}
