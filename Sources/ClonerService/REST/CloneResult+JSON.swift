import ClonerClone

extension CloneResult {
    /// The clone answer of DESIGN.md §4, members in a fixed order and entity maps sorted by name,
    /// so the same result always gives the same bytes (an idempotent replay is byte-identical).
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("source")
        writer.beginObject()
        writer.key("entity"); writer.string(source.entity)
        writer.key("id"); writer.integer(source.id)
        writer.endObject()
        writer.key("clone")
        if dryRun {
            writer.null()
        } else {
            writer.beginObject()
            writer.key("entity"); writer.string(clone.entity)
            writer.key("id"); writer.integer(clone.id)
            writer.endObject()
        }
        for (name, counts) in [("created", created), ("linked", linked)] {
            writer.key(name)
            writer.beginObject()
            for (entity, count) in counts.sorted(by: { $0.key < $1.key }) where count > 0 {
                writer.key(entity); writer.integer(count)
            }
            writer.endObject()
        }
        if let ids {
            writer.key("ids")
            writer.beginObject()
            for (entity, map) in ids.sorted(by: { $0.key < $1.key }) {
                writer.key(entity)
                writer.beginObject()
                for (old, new) in map.sorted(by: { $0.key < $1.key }) {
                    writer.key(String(old)); writer.integer(new)
                }
                writer.endObject()
            }
            writer.endObject()
        }
        writer.key("dryRun"); writer.bool(dryRun)
        writer.endObject()
    }

    func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return writer.bytes
    }
}
