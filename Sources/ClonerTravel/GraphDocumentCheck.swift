import ClonerClone
import ClonerModel
import ClonerStore

/// What a graph document must hold across its lines, checked as the lines come (so memory holds
/// refs, not objects): the header first and the end line last with the right counts, no ref named
/// by two lines of an entity, owners before what they own, references before the lines that name
/// them, and every ref a relationship names given a line somewhere.
///
/// It also decides, as a clone's walk would, what the import's `exclude` leaves out: an object
/// owned only through an excluded relationship is dropped with everything it owns, so that the
/// write pass knows before its first row which lines and links to pass over. And it refuses an
/// existing object (a reference line) in a relationship that owns its destinations: a clone
/// never takes an object from its owner, and an import must not either.
struct GraphDocumentCheck {
    let root: EntityDescription
    let maximumObjects: Int
    /// The import's plan: which relationships own their destinations and what is excluded.
    let plan: GraphCopyPlan?
    private(set) var rootRef: Int64?
    private(set) var objects: [String: Set<Int64>] = [:]
    private(set) var references: [String: Set<Int64>] = [:]
    private(set) var objectCount = 0
    private(set) var referenceCount = 0
    private(set) var ended = false
    /// Refs named by a relationship before their own line: entity → ref → where first named, as
    /// `NamedPlace` packs it. A parent's line names all its children before their lines come, so
    /// this holds most of a document's refs at once: a word per ref, no string per ref.
    private var named: [String: [Int64: Int64]] = [:]
    /// The fields `named` refers to (`relationships.items`), each once.
    private var namedFields: [String] = []
    private var namedFieldIndex: [String: Int64] = [:]

    /// Where a ref was first named, in one word: its line above the field's index.
    private enum NamedPlace {
        static let fieldBits: Int64 = 20
        static func pack(line: Int, field: Int64) -> Int64 { Int64(line) << fieldBits | field }
        static func line(_ packed: Int64) -> Int { Int(packed >> fieldBits) }
        static func field(_ packed: Int64) -> Int { Int(packed & (1 << fieldBits - 1)) }
    }

    private mutating func fieldIndex(_ field: String) -> Int64 {
        if let index = namedFieldIndex[field] { return index }
        let index = Int64(namedFields.count)
        namedFields.append(field)
        namedFieldIndex[field] = index
        return index
    }
    /// Objects an exclusion leaves out (kept only when some owned relationship is excluded).
    private(set) var dropped: [String: Set<Int64>] = [:]
    /// Refs an excluded owned relationship named, and refs a kept one named: an object of the
    /// first and not the second is dropped when its line comes.
    private var cut: [String: Set<Int64>] = [:]
    private var held: [String: Set<Int64>] = [:]

    init(root: EntityDescription, maximumObjects: Int, plan: GraphCopyPlan? = nil) {
        self.root = root
        self.maximumObjects = maximumObjects
        self.plan = plan
    }

    func isDropped(_ entity: String, _ ref: Int64) -> Bool { dropped[entity]?.contains(ref) ?? false }

    /// Whether `relationship` is left out on the object of line `object` (everywhere, or at the root).
    func isExcluded(_ relationship: RelationshipDescription, onRoot: Bool) -> Bool {
        guard let plan else { return false }
        return plan.isExcludedEverywhere(relationship.source, relationship.name) || (onRoot && plan.excludedAtRoot.contains(relationship.name))
    }

    private func bad(_ line: Int, _ field: String, _ message: String) -> GraphImportError {
        .badLine(line: line, field: field, message: message, syntax: false)
    }

    func isObject(_ entity: String, _ ref: Int64) -> Bool { objects[entity]?.contains(ref) ?? false }
    func isReference(_ entity: String, _ ref: Int64) -> Bool { references[entity]?.contains(ref) ?? false }

    mutating func check(_ line: GraphDocumentLines.Line, number: Int) throws {
        switch line {
        case .header(let ref): rootRef = ref
        case .object(let object): try check(object)
        case .reference(let reference): try check(reference)
        case .end(let objects, let references):
            guard objects == objectCount else { throw bad(number, "objects", "says \(objects) objects; the document has \(objectCount)") }
            guard references == referenceCount else {
                throw bad(number, "references", "says \(references) references; the document has \(referenceCount)")
            }
            ended = true
        }
    }

    private mutating func check(_ object: GraphDocumentLines.ObjectLine) throws {
        let name = object.entity.name, line = object.line
        guard !isObject(name, object.ref), !isReference(name, object.ref) else { throw bad(line, "ref", "\(name) \(object.ref) appears twice") }
        guard objectCount < maximumObjects else { throw CloneError.tooLarge(objects: objectCount + 1, limit: maximumObjects) }
        if let parent = object.parent, !isObject(parent.entity, parent.ref) {
            throw bad(line, "parent", "\(parent.entity) \(parent.ref) has no object line before this one (owners come first)")
        }
        objects[name, default: []].insert(object.ref)
        objectCount += 1
        named[name]?[object.ref] = nil
        let isDropped =
            object.parent.map { self.isDropped($0.entity, $0.ref) } == true
            || (cut[name]?.contains(object.ref) == true && held[name]?.contains(object.ref) != true)
        if isDropped { dropped[name, default: []].insert(object.ref) }
        let onRoot = name == root.name && object.ref == rootRef
        for (relationship, refs) in object.relationships {
            let destination = relationship.destination
            var place: Int64?
            for ref in refs where !isObject(destination, ref) && !isReference(destination, ref) && named[destination]?[ref] == nil {
                if place == nil { place = NamedPlace.pack(line: line, field: fieldIndex("relationships.\(relationship.name)")) }
                named[destination, default: [:]][ref] = place
            }
            guard let plan, plan.isOwned(relationship), !isDropped else { continue }
            if isExcluded(relationship, onRoot: onRoot) {
                cut[destination, default: []].formUnion(refs)
                continue
            }
            if !plan.excludedEverywhere.isEmpty || !plan.excludedAtRoot.isEmpty { held[destination, default: []].formUnion(refs) }
            if let ref = refs.first(where: { isReference(destination, $0) }) {
                throw bad(
                    line, "relationships.\(relationship.name)",
                    "\(destination) \(ref) is an existing object (a reference line), and \(name).\(relationship.name) owns its destinations: an import, like a clone, copies what a relationship owns and never takes an object from its owner"
                )
            }
        }
    }

    private mutating func check(_ reference: GraphDocumentLines.ReferenceLine) throws {
        let name = reference.entity.name, line = reference.line
        guard !isObject(name, reference.ref), !isReference(name, reference.ref) else {
            throw bad(line, "ref", "\(name) \(reference.ref) appears twice")
        }
        if let first = named[name]?[reference.ref] {
            throw bad(
                line, "ref", "\(name) \(reference.ref) is named on line \(NamedPlace.line(first)) before its reference line (references come first)")
        }
        references[name, default: []].insert(reference.ref)
        referenceCount += 1
    }

    /// The checks that need the whole document, once its last line is read.
    func finish(headerRead: Bool, lastLine: Int) throws {
        guard headerRead else {
            throw GraphImportError.badLine(line: 1, field: "", message: "the document is empty: expected a header line", syntax: true)
        }
        guard ended else {
            throw GraphImportError.badLine(
                line: lastLine + 1, field: "", message: "the document ends without its end line: it was cut short", syntax: true)
        }
        guard let rootRef, isObject(root.name, rootRef) else {
            throw bad(1, "root", "no object line for the root \(root.name) \(rootRef ?? 0)")
        }
        var first: (entity: String, ref: Int64, line: Int, field: String)?
        for (entity, refs) in named {
            for (ref, place) in refs where first == nil || NamedPlace.line(place) < first!.line {
                first = (entity, ref, NamedPlace.line(place), namedFields[NamedPlace.field(place)])
            }
        }
        if let first {
            throw bad(
                first.line, first.field,
                "names \(first.entity) \(first.ref), which no object or reference line of this document has")
        }
    }
}
