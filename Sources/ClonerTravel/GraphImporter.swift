import ClonerClone
import ClonerModel
import ClonerStore
import Foundation

/// Reads a `GraphFormat` document a line at a time and creates its graph on the target with new
/// ids, as a clone would (docs/architecture.md#graphs-that-travel): the target's clone rules
/// apply (rebuilt UUIDs and dates, `followParent`, exclusions), shared objects are found by their
/// natural key, and everything is written inside the caller's write transaction — all of it, or
/// nothing.
///
/// Feed it bytes as they arrive (`feed`), then `finish`; every line is checked as it is read, so a
/// bad document is refused naming its line before anything is written. The checked lines go to a
/// temporary file meanwhile (`GraphDocumentSpool`), not into memory; `run` reads them back and
/// writes the objects a batch of rows at a time (`GraphRowWriter`). What the import holds is the
/// refs of the document and their new ids, a batch of rows and one line — not the document.
public struct GraphImporter: Sendable {
    public let options: GraphImportOptions
    let schema: StoreSchema
    let root: EntityDescription
    let plan: ClonePlan
    private var reader = GraphLineReader()

    /// The bytes of the document's unfinished line (`GraphLineReader.heldBytes`).
    public var heldLineBytes: Int { reader.heldBytes }
    private var lines: GraphDocumentLines
    private var check: GraphDocumentCheck
    private let spool: GraphDocumentSpool
    private var finished = false

    /// `collection`'s entity is the root entity the document must have. Throws `CloneError` for
    /// an `exclude` naming nothing.
    public init(schema: StoreSchema, root: EntityDescription, options: GraphImportOptions) throws(CloneError) {
        self.schema = schema
        self.root = root
        self.options = options
        self.plan = try ClonePlan(
            request: CloneRequest(
                entity: root.name, id: 1, exclude: options.exclude,
                maximumObjects: options.maximumObjects), schema: schema)
        self.lines = GraphDocumentLines(model: schema.model, root: root, maximumValueBytes: options.maximumValueBytes)
        self.check = GraphDocumentCheck(root: root, maximumObjects: options.maximumObjects, plan: plan.copy)
        self.spool = GraphDocumentSpool(model: GraphSpoolRecord.ModelIndex(schema.model))
    }

    public mutating func feed(_ bytes: [UInt8]) throws {
        let spool = self.spool
        try withReading { reader, lines, check in
            try reader.feed(bytes) { number, line in try GraphImporter.read(number, line, lines: &lines, check: &check, spool: spool) }
        }
    }

    /// Runs `body` on the line reader, the line decoder and the check taken out of `self` — not
    /// copied: the check's sets would be copied whole on their first change — and puts them back.
    private mutating func withReading(
        _ body: (inout GraphLineReader, inout GraphDocumentLines, inout GraphDocumentCheck) throws -> Void
    ) rethrows {
        var reader = self.reader, lines = self.lines, check = self.check
        self.reader = GraphLineReader()
        self.check = GraphDocumentCheck(root: root, maximumObjects: 0)
        defer {
            self.reader = reader
            self.lines = lines
            self.check = check
        }
        try body(&reader, &lines, &check)
    }

    /// Checks one line, and keeps its object or reference for `run`.
    private static func read(
        _ number: Int, _ bytes: ArraySlice<UInt8>, lines: inout GraphDocumentLines, check: inout GraphDocumentCheck, spool: GraphDocumentSpool
    ) throws {
        let line = try lines.read(line: number, bytes)
        try check.check(line, number: number)
        switch line {
        case .object(let object): try spool.append(object)
        case .reference(let reference): try spool.append(reference)
        case .header, .end: break
        }
    }

    /// The end of the document: the last line, then the checks that need every line (every
    /// reference names a line, the end line is there).
    public mutating func finish() throws {
        let spool = self.spool
        try withReading { reader, lines, check in
            try reader.finish { number, line in try GraphImporter.read(number, line, lines: &lines, check: &check, spool: spool) }
            try check.finish(headerRead: lines.header != nil, lastLine: reader.lineNumber)
        }
        finished = true
    }

    /// Object lines read so far (for progress).
    public var objectCount: Int { check.objectCount }

    /// The objects a finished document creates at most: its object lines, and its reference lines
    /// in case they are created too (`createMissing`). A job's `planned` before it runs.
    public var plannedObjects: Int { check.objectCount + (options.createMissing ? check.referenceCount : 0) }

    /// Reads the document's objects and references back from the spool and, in `context`'s
    /// transaction, finds the shared objects (one query per entity for a batch of reference
    /// lines), then writes each object with the target's clone rules as it comes (unless a dry
    /// run). Throws `GraphImportError.unmatched` listing every shared object the target lacks
    /// (unless `createMissing`); the caller's transaction then rolls back whatever was written.
    /// `progress` learns the objects planned, and each batch written.
    public func run(in context: any StoreContext, now: Date, progress: GraphCopyProgress? = nil) throws -> GraphImportResult {
        precondition(finished, "run before finish")
        progress?.setPlanned(plannedObjects)
        var pass = GraphImportPass(
            importer: self, model: context.model, writer: options.dryRun ? nil : context.graphRowWriter(progress: progress), now: now)
        let header = lines.header ?? [:]
        pass.planEntities(of: header)
        try spool.read { record in
            switch record {
            case .object(let object): try pass.handle(.object(object), header: header, check: check, context: context)
            case .reference(let reference): try pass.handle(.reference(reference), header: header, check: check, context: context)
            }
        }
        try pass.handle(.end(objects: 0, references: 0), header: header, check: check, context: context)
        return try pass.finish(rootRef: check.rootRef ?? 0)
    }

    /// Of an inverse pair whose both ends are in the graph, whether `relationship` is the side an
    /// import writes: an ordered list (its order is the document's), else the to-many side (its
    /// children follow it, so the store writes the link with their rows), else the first by name.
    static func writesPair(_ relationship: RelationshipDescription, _ inverse: RelationshipDescription) -> Bool {
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        return relationship.qualifiedName < inverse.qualifiedName
    }
}
