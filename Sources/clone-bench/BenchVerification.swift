import ClonerClone
import ClonerModel
import ClonerStore
import Foundation

/// Proves on a small graph that the set-wise data set is what the store's own API would have
/// written, and that the Cloner and the reference copy produce the same graph — otherwise the
/// figures would compare different work.
struct BenchVerification {
    let model: DataModel
    var items = 12
    var attachmentBytes = 4096

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func run(in directory: URL) throws -> String {
        let store = try IncrementalStore(path: directory.appendingPathComponent("verify.sqlite").path, model: model)
        let root = try BenchDataSet(items: items, attachmentBytes: attachmentBytes).build(in: store)
        let original = try describe(store: store, note: root)
        try check(original.items == items, "original note has \(original.items) items, expected \(items)")
        try check(original.memos == items, "original note has \(original.memos) memos, expected \(items)")
        try check(original.tagLinks == 2 * items, "original memos have \(original.tagLinks) tag links, expected \(2 * items)")
        try check(original.distinctTags.allSatisfy { (1...50).contains($0) }, "memos link to tags that do not exist")
        try check(original.attachmentBytes == items * attachmentBytes, "original attachments hold \(original.attachmentBytes) bytes")

        let result = try CloneEngine(store: store).clone(CloneRequest(entity: "Note", id: root))
        let cloned = try describe(store: store, note: result.clone.id)
        let referenceNote = try store.write { try ReferenceCopy(root: root).run(in: $0) }
        let reference = try describe(store: store, note: referenceNote)
        for (name, copy) in [("Cloner", cloned), ("reference", reference)] {
            try check(copy.shape == original.shape, "\(name) copy differs from the original: \(copy.shape) vs \(original.shape)")
            try check(copy.noteUUID != original.noteUUID, "\(name) copy kept the note's uuid")
            try check(copy.itemNoteIDs == [copy.noteUUID], "\(name) copy's items do not carry the new note's uuid")
            try check(copy.distinctTags == original.distinctTags, "\(name) copy does not share the original tags")
            try check(copy.attachmentBytes == original.attachmentBytes, "\(name) copy's attachments differ in size")
            try check(Set(copy.memoIDs).isDisjoint(with: original.memoIDs), "\(name) copy reuses original memos")
        }
        return "verified on \(items) items: data set reads back through the store API (items, memos, 2 tags per memo, "
            + "\(attachmentBytes)-byte attachments); Cloner and reference copies have the original's shape"
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(description: "verification failed: " + message()) }
    }

    /// What a note's graph looks like through the store's fetch API, ids aside.
    struct NoteGraph {
        var noteUUID: AttributeValue = .null
        var items = 0
        var memos = 0
        var tagLinks = 0
        var distinctTags: Set<Int64> = []
        var attachmentBytes = 0
        var itemNoteIDs: Set<AttributeValue> = []
        var memoIDs: [Int64] = []
        /// Per item in order: its name, its item data's value, the memo's text, its tags' ids, its
        /// attachments' sizes; follows every relationship the model declares between them.
        var shape: [String] = []
    }

    private func describe(store: IncrementalStore, note: Int64) throws -> NoteGraph {
        try store.read { context in
            var graph = NoteGraph()
            guard let object = try context.fetchObject(entity: "Note", id: note) else { throw Failure(description: "note \(note) missing") }
            graph.noteUUID = object.attributes["id"] ?? .null
            let itemIDs = ids(object.relationships["items"])
            graph.memoIDs = ids(object.relationships["memos"])
            graph.items = itemIDs.count
            graph.memos = graph.memoIDs.count
            let items = try context.fetchObjects(entity: "Item", ids: itemIDs)
            for item in items {
                graph.itemNoteIDs.insert(item.attributes["noteID"] ?? .null)
                guard ids(item.relationships["note"]) == [note] else { throw Failure(description: "item \(item.id) not on note \(note)") }
                let datas = try context.fetchObjects(entity: "ItemData", ids: ids(item.relationships["itemDatas"]))
                var line = "\(item.attributes["name"] ?? .null)"
                for data in datas {
                    let memos = try context.fetchObjects(entity: "Memo", ids: ids(data.relationships["memo"]))
                    line += " data=\(data.attributes["value"] ?? .null)"
                    for memo in memos {
                        let tags = ids(memo.relationships["tags"])
                        graph.tagLinks += tags.count
                        graph.distinctTags.formUnion(tags)
                        guard graph.memoIDs.contains(memo.id) else { throw Failure(description: "memo \(memo.id) not in the note's memos") }
                        guard ids(memo.relationships["itemData"]) == [data.id] else { throw Failure(description: "memo \(memo.id) inverse broken") }
                        let attachments = try context.fetchObjects(entity: "Attachment", ids: ids(memo.relationships["attachments"]))
                        var sizes: [Int] = []
                        for attachment in attachments {
                            if case .binary(let bytes)? = attachment.attributes["image"] { sizes.append(bytes.count) }
                        }
                        graph.attachmentBytes += sizes.reduce(0, +)
                        line += " memo=\(memo.attributes["text"] ?? .null) tags=\(tags) attachments=\(sizes)"
                    }
                }
                graph.shape.append(line)
            }
            return graph
        }
    }

    private func ids(_ value: RelationshipValue?) -> [Int64] {
        switch value {
        case .toOne(let id?)?: return [id]
        case .toMany(let ids)?: return ids
        default: return []
        }
    }
}
