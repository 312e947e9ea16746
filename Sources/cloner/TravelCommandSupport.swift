import ArgumentParser
import ClonerModel
import ClonerService
import ClonerStore
import Foundation
import Glibc

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

    /// The file `--output` names, opened for writing as a shell's `>` opens it: created when
    /// missing, emptied when it is a regular file, written in place when it is anything else.
    /// Foundation's `createFile` writes a new file and renames it over the path, which as root
    /// turned `--output /dev/null` into an ordinary file, and would do the same to a named pipe
    /// or to the file a symbolic link points at.
    static func outputHandle(_ path: String?) throws -> FileHandle {
        guard let path, path != "-" else { return FileHandle.standardOutput }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
