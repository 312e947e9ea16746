import ArgumentParser
import ClonerModel
import ClonerService
import ClonerStore
import Foundation

/// `cloner check-store`: checks a store's blobs (docs/architecture.md#shared-blobs) on a live
/// database — every reference has its blob, every blob a reference, every blob's bytes hash to
/// its key — so an operator can prove the store consistent after a crash or a restore. Uploads
/// not finished (one cut by `kill -9` among them) are named as such, and are no inconsistency:
/// the housekeeping removes the dead ones.
struct CheckStoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-store",
        abstract: "Check that every stored binary value is referenced, present and intact.",
        discussion: """
            Opens the store the service would (settings file, environment, then these flags; a store of an older \
            format is migrated first), reads it in one transaction and prints each problem on its own line, then \
            each upload not finished (in progress, or cut short by a process that died: the hourly housekeeping \
            removes those). Exits 0 when the store is consistent (pending uploads included), 1 when it is not, \
            2 when it cannot be opened.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Report at most this many problems.")
    var limit: Int = 100

    func run() throws {
        let store: IncrementalStore
        do {
            let configuration = try ServiceConfiguration.load(
                overrides: .init(settingsFile: storeOptions.settingsFile, databasePath: storeOptions.database, modelPath: storeOptions.model))
            let model = try ModelLoader.load(contentsOf: URL(fileURLWithPath: configuration.modelPath), keys: configuration.cloneRuleKeys)
            store = try IncrementalStore(
                location: configuration.storeLocation, model: model, maximumConnections: 1,
                log: { print("migration: \($0)") })
        } catch {
            FileHandle.standardError.write(Data("cloner check-store: cannot open the store: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let found = try store.read { try $0.checkBlobs(limit: max(1, limit)) }
        for item in found { print(item) }
        let problems = found.filter(\.isInconsistency).count
        guard problems == 0 else {
            FileHandle.standardError.write(
                Data("cloner check-store: \(problems)\(found.count >= limit ? " or more" : "") problems in \(store.location)\n".utf8))
            throw ExitCode(1)
        }
        let pending = found.count
        print("\(store.location): blobs consistent" + (pending == 0 ? "" : " (\(pending) pending upload\(pending == 1 ? "" : "s") above)"))
    }
}
