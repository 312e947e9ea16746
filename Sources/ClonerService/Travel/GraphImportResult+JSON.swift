import ClonerClone
import ClonerTravel

extension GraphImportResult {
    /// The clone answer (docs/architecture.md#the-clone-answer); a dry run adds `conflicts`, every
    /// shared object the real import would not find.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        result.write(to: &writer) { writer in
            guard result.dryRun else { return }
            writer.key("conflicts")
            writer.beginArray()
            for conflict in conflicts { writer.string(conflict) }
            writer.endArray()
        }
        return writer.bytes
    }
}
