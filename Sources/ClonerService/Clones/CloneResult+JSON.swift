import ClonerClone

extension CloneResult {
    /// The clone answer (docs/architecture.md#the-clone-answer), members in a fixed order and entity maps sorted by name,
    /// so the same result always gives the same bytes (an idempotent replay is byte-identical).
    /// `more` writes members of its own before the object closes (an import's `conflicts`).
    func write(to writer: inout JSONWriter, more: ((inout JSONWriter) -> Void)? = nil) {
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
        if let clones {
            // docs/architecture.md#many-copies: every copy's root, in order (null for a dry run, like `clone`).
            writer.key("clones")
            if dryRun {
                writer.null()
            } else {
                writer.beginArray()
                for clone in clones {
                    writer.beginObject()
                    writer.key("entity"); writer.string(clone.entity)
                    writer.key("id"); writer.integer(clone.id)
                    writer.endObject()
                }
                writer.endArray()
            }
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
            CloneResult.write(ids, to: &writer)
        }
        if let copyIDs {
            // Per copy, in the order of `clones`.
            writer.key("ids")
            writer.beginArray()
            for ids in copyIDs { CloneResult.write(ids, to: &writer) }
            writer.endArray()
        }
        writer.key("dryRun"); writer.bool(dryRun)
        if let values {
            // docs/architecture.md#unique-values-on-copy: what a dry run's `rebuild: suffix` would give.
            writer.key("values")
            writer.beginObject()
            for (attribute, list) in values.sorted(by: { $0.key < $1.key }) {
                writer.key(attribute)
                writer.beginArray()
                for value in list { writer.string(value) }
                writer.endArray()
            }
            writer.endObject()
        }
        if let conflicts {
            // A dry run's unique clashes: what the clone would answer 409 for, every one at once.
            writer.key("conflicts")
            writer.beginArray()
            for conflict in conflicts {
                writer.beginObject()
                writer.key("entity"); writer.string(conflict.entity)
                writer.key("attributes")
                writer.beginArray()
                for attribute in conflict.attributes { writer.string(attribute) }
                writer.endArray()
                writer.key("objects"); writer.integer(conflict.objects)
                writer.endObject()
            }
            writer.endArray()
        }
        more?(&writer)
        writer.endObject()
    }

    /// Old → new `_id` per entity, entities and ids sorted.
    private static func write(_ ids: [String: [Int64: Int64]], to writer: inout JSONWriter) {
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

    func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + (clones?.count ?? 0) * 32)
        write(to: &writer)
        return writer.bytes
    }
}
