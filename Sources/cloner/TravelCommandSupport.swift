import ArgumentParser
import ClonerModel
import ClonerService
import ClonerStore
import Foundation

/// What the travel commands share: the settings, model and store as `cloner serve` would open them.
enum TravelCommandSupport {
    static func open(_ options: StoreOptions) throws -> (ServiceConfiguration, DataModel, IncrementalStore) {
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration.load(
                overrides: .init(settingsFile: options.settingsFile, databasePath: options.database, modelPath: options.model))
        } catch {
            FileHandle.standardError.write(Data("cloner: invalid configuration: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let loaded = try ModelLoader.load(contentsOf: URL(fileURLWithPath: configuration.modelPath), keys: configuration.cloneRuleKeys)
        let store = try IncrementalStore(location: configuration.storeLocation, model: loaded)
        return (configuration, loaded, store)
    }

    static func outputHandle(_ path: String?) throws -> FileHandle {
        guard let path, path != "-" else { return FileHandle.standardOutput }
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw ValidationError("cannot create \(path)")
        }
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }
}
