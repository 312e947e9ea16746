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
    /// Copies in the many-copies check of the Cloner's batch against `ReferenceCopies`.
    var copies = 3

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
        try check(reference.values == cloned.values, "reference copy's values differ from the Cloner's: \(reference.values) vs \(cloned.values)")
        try checkManyCopies(store: store, root: root, original: original)
        return "verified on \(items) items: data set reads back through the store API (items, memos, 2 tags per memo, "
            + "\(attachmentBytes)-byte attachments); Cloner and reference copies have the original's shape; "
            + "for \(copies) copies the Cloner's batch and ReferenceCopies write the same rows per table, bump the same tags, "
            + "and every copy has the original's shape within itself"
    }

    /// The Cloner's batch against `ReferenceCopies`, on the same store one after the other: the
    /// same rows added per table, the same tag versions bumped, and every copy of either the
    /// original's graph with the Cloner's values, its references inside its own copy.
    private func checkManyCopies(store: IncrementalStore, root: Int64, original: NoteGraph) throws {
        var notes: [String: [Int64]] = [:]
        var added: [String: [String: Int]] = [:]
        var bumped: [String: [Int64: Int64]] = [:]
        for name in ["Cloner", "reference"] {
            let countsBefore = try BenchRun.rowCounts(store)
            let versionsBefore = try tagVersions(store)
            if name == "Cloner" {
                let result = try CloneEngine(store: store).clone(CloneRequest(entity: "Note", id: root, copies: copies))
                notes[name] = (result.clones ?? []).map(\.id)
            } else {
                notes[name] = try store.write { try ReferenceCopies(root: root, copies: copies).run(in: $0) }
            }
            let countsAfter = try BenchRun.rowCounts(store)
            let versionsAfter = try tagVersions(store)
            added[name] = Dictionary(uniqueKeysWithValues: countsAfter.map { ($0.key, $0.value - (countsBefore[$0.key] ?? 0)) })
            bumped[name] = Dictionary(uniqueKeysWithValues: versionsAfter.map { ($0.key, $0.value - (versionsBefore[$0.key] ?? 0)) })
            try check(notes[name]?.count == copies, "\(name) made \(notes[name]?.count ?? 0) copies, expected \(copies)")
        }
        try check(added["Cloner"] == added["reference"], "for \(copies) copies the Cloner added \(added["Cloner"]!) rows, the reference \(added["reference"]!)")
        try check(
            bumped["Cloner"] == bumped["reference"], "for \(copies) copies the Cloner bumped tags \(bumped["Cloner"]!), the reference \(bumped["reference"]!)")
        let clonerValues = try describe(store: store, note: notes["Cloner"]![0]).values
        for (name, ids) in notes {
            var uuids: Set<AttributeValue> = [original.noteUUID]
            var memos = Set(original.memoIDs)
            for (index, note) in ids.enumerated() {
                let copy = try describe(store: store, note: note)
                let label = "\(name) copy \(index) of \(copies)"
                try check(copy.shape == original.shape, "\(label) differs from the original: \(copy.shape) vs \(original.shape)")
                try check(copy.values == clonerValues, "\(label) has values \(copy.values), the Cloner's copy \(clonerValues)")
                try check(uuids.insert(copy.noteUUID).inserted, "\(label) repeats a note uuid")
                try check(copy.itemNoteIDs == [copy.noteUUID], "\(label)'s items do not carry its note's uuid")
                try check(copy.distinctTags == original.distinctTags, "\(label) does not share the original tags")
                try check(copy.attachments == original.attachments, "\(label)'s attachments differ from the original's")
                try check(memos.isDisjoint(with: copy.memoIDs), "\(label) reuses another copy's or the original's memos")
                memos.formUnion(copy.memoIDs)
            }
        }
    }

    private func tagVersions(_ store: IncrementalStore) throws -> [Int64: Int64] {
        try store.read { context in
            var versions: [Int64: Int64] = [:]
            try context.sqliteConnection.forEachRow("SELECT \"_id\", \"_version\" FROM \"Tag\"") { versions[$0.int64(0)] = $0.int64(1) }
            return versions
        }
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
        /// The attachments' bytes in item order.
        var attachments: [Data] = []
        /// The note's attributes but its uuid and `createDate`, and whether every `createDate`
        /// of the graph is the original's fixed date: what a copy's rules decide, ids aside.
        var values: [String] = []
        /// Per item in order: its name, its item data's value, the memo's text, its tags' ids, its
        /// attachments' sizes; follows every relationship the model declares between them.
        var shape: [String] = []
    }

    private func describe(store: IncrementalStore, note: Int64) throws -> NoteGraph {
        try store.read { context in
            var graph = NoteGraph()
            guard let object = try context.fetchObject(entity: "Note", id: note) else { throw Failure(description: "note \(note) missing") }
            graph.noteUUID = object.attributes["id"] ?? .null
            var dates: Set<AttributeValue> = [object.attributes["createDate"] ?? .null]
            for name in object.attributes.keys.sorted() where name != "id" && name != "createDate" {
                graph.values.append("\(name)=\(object.attributes[name] ?? .null)")
            }
            for name in ["template", "noteDescription"] { graph.values.append("\(name)=\(ids(object.relationships[name]))") }
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
                    dates.insert(data.attributes["createDate"] ?? .null)
                    let memos = try context.fetchObjects(entity: "Memo", ids: ids(data.relationships["memo"]))
                    line += " data=\(data.attributes["value"] ?? .null)"
                    for memo in memos {
                        dates.insert(memo.attributes["createDate"] ?? .null)
                        let tags = ids(memo.relationships["tags"])
                        graph.tagLinks += tags.count
                        graph.distinctTags.formUnion(tags)
                        guard graph.memoIDs.contains(memo.id) else { throw Failure(description: "memo \(memo.id) not in the note's memos") }
                        guard ids(memo.relationships["itemData"]) == [data.id] else { throw Failure(description: "memo \(memo.id) inverse broken") }
                        let attachments = try context.fetchObjects(entity: "Attachment", ids: ids(memo.relationships["attachments"]))
                        var sizes: [Int] = []
                        for attachment in attachments {
                            if case .binary(let bytes)? = attachment.attributes["image"] {
                                sizes.append(bytes.count)
                                graph.attachments.append(bytes)
                            }
                        }
                        graph.attachmentBytes += sizes.reduce(0, +)
                        line += " memo=\(memo.attributes["text"] ?? .null) tags=\(tags) attachments=\(sizes)"
                    }
                }
                graph.shape.append(line)
            }
            let kept = dates.contains(.date(millisecondsSince1970: BenchDataSet.createdMilliseconds))
            graph.values.append("createDate kept: \(kept)")
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
