import ClonerModel
import Foundation
import Testing

/// Core Data models as Xcode saves them (docs/architecture.md#core-data-models): the fixture under
/// Tests/Fixtures/CoreData is a `.xcdatamodeld` with two versions, written in Xcode's format.
@Suite struct CoreDataModelTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/CoreData")
    static let bundle = fixtures.appendingPathComponent("Notes.xcdatamodeld")

    /// A folder holding `contents` with the given entities inside Xcode's `<model>` element.
    static func contents(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>
        """
    }

    /// Writes `xml` as the `contents` of a `.xcdatamodel` folder in a fresh temporary folder.
    static func modelFolder(_ xml: String) throws -> (model: URL, cleanUp: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-coredata-\(UUID().uuidString)")
        let model = folder.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: model.appendingPathComponent("contents"))
        return (model, { try? FileManager.default.removeItem(at: folder) })
    }

    static func problems(_ xml: String) throws -> [ModelProblem] {
        let (url, cleanUp) = try modelFolder(xml)
        defer { cleanUp() }
        do {
            _ = try ModelLoader.load(contentsOf: url)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func theCurrentVersionIsLoadedWithEveryTypeMapped() throws {
        let model = try ModelLoader.load(contentsOf: Self.bundle)
        #expect(
            model.entities.map(\.name) == ["Item", "ItemDetail", "Memo", "Note", "NoteDescription", "ToManyTag", "ToOneTag"],
            "Notes 2 (named by .xccurrentversion), not the first version")
        let note = try #require(model.entity(named: "Note"))
        let types = Dictionary(uniqueKeysWithValues: note.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "createDate": .date, "data": .binary, "id": .uuid, "index": .integer, "name": .string, "pinned": .boolean,
                "reviewDate": .date, "score": .double, "link": .string, "weight": .double, "revision": .integer,
            ])
        #expect(note.attribute(named: "isSelected") == nil, "transient attributes are not stored")
        #expect(note.collection == "notes")
        #expect(model.entity(named: "ToOneTag")?.collection == "toonetags")

        // Optionality as written: absent means required.
        #expect(note.attribute(named: "index")?.isOptional == false)
        #expect(note.attribute(named: "name")?.isOptional == true)
        // Defaults parsed for the type; a date default is seconds after 2001-01-01.
        #expect(note.attribute(named: "index")?.defaultValue == .integer(0))
        #expect(note.attribute(named: "revision")?.defaultValue == .integer(9_000_000_000))
        #expect(note.attribute(named: "score")?.defaultValue == .double(0.5))
        #expect(note.attribute(named: "weight")?.defaultValue == .double(1.25))
        #expect(note.attribute(named: "pinned")?.defaultValue == .boolean(false))
        #expect(note.attribute(named: "name")?.defaultValue == .string("Untitled"))
        #expect(note.attribute(named: "reviewDate")?.defaultValue == .date(millisecondsSince1970: (694_224_000 + 978_307_200) * 1000))

        // Clone rules from user info, values as strings.
        #expect(note.attribute(named: "id")?.cloneRule.rebuild == .uuid)
        #expect(note.attribute(named: "createDate")?.cloneRule.rebuild == .now)
        #expect(note.attribute(named: "index")?.cloneRule.isExcluded == true)
        let noteID = try #require(model.entity(named: "Item")?.attribute(named: "noteID"))
        #expect(noteID.cloneRule.followParent == "id")
        #expect(noteID.cloneRule.withoutParent == .blank)

        // Relationships: to-one by maxCount, to-many, ordered, delete rules, inverses, ownership.
        let items = try #require(note.relationship(named: "items"))
        #expect(items.isToMany && items.isOrdered && items.deleteRule == .cascade && items.inverseName == "note" && items.isOwned)
        let description = try #require(note.relationship(named: "noteDescription"))
        #expect(!description.isToMany && description.deleteRule == .cascade && description.isOwned)
        #expect(note.relationship(named: "toOneTag")?.isOwned == false, "many-to-one is shared")
        #expect(model.entity(named: "Item")?.relationship(named: "toManyTags")?.isOwned == false, "many-to-many is shared")
        let detail = try #require(model.entity(named: "Item")?.relationship(named: "detail"))
        #expect(detail.inverseName == nil && detail.isOwned, "an inverse-less to-one is owned")

        // Uniqueness constraints: one attribute is `unique`, several are a group.
        #expect(model.entity(named: "ToOneTag")?.attribute(named: "name")?.isUnique == true)
        #expect(model.entity(named: "ToManyTag")?.uniqueTogether == [["name", "color"]])
    }

    @Test func importedModelFileLoadsToTheSameModel() throws {
        let direct = try ModelLoader.load(contentsOf: Self.bundle)
        let document = try ModelLoader.importCoreDataModel(contentsOf: Self.bundle)
        let viaFile = try ModelLoader.load(data: Data(document.prettyText.utf8))
        #expect(viaFile.normalizedText == direct.normalizedText)
        #expect(viaFile.fingerprint == direct.fingerprint)
    }

    @Test func aVersionFolderAndItsContentsFileLoadToo() throws {
        let version = Self.bundle.appendingPathComponent("Notes 2.xcdatamodel")
        let fromFolder = try ModelLoader.load(contentsOf: version)
        let fromFile = try ModelLoader.load(contentsOf: version.appendingPathComponent("contents"))
        #expect(fromFolder.fingerprint == fromFile.fingerprint)
        #expect(fromFolder.fingerprint == (try ModelLoader.load(contentsOf: Self.bundle)).fingerprint)
        let first = try ModelLoader.load(contentsOf: Self.bundle.appendingPathComponent("Notes.xcdatamodel"))
        #expect(first.entities.map(\.name) == ["Note"])
    }

    @Test func aBundleWithoutCurrentVersionNeedsExactlyOneVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-coredata-\(UUID().uuidString).xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = Self.contents(#"<entity name="Note" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>"#)
        for version in ["A.xcdatamodel", "B.xcdatamodel"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(version), withIntermediateDirectories: true)
            try Data(single.utf8).write(to: folder.appendingPathComponent(version).appendingPathComponent("contents"))
        }
        #expect(throws: ModelError.self) { try ModelLoader.load(contentsOf: folder) }
        do {
            _ = try ModelLoader.load(contentsOf: folder)
        } catch {
            #expect(error.description.contains("exactly one .xcdatamodel") && error.description.contains("A.xcdatamodel, B.xcdatamodel"))
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("B.xcdatamodel"))
        #expect(try ModelLoader.load(contentsOf: folder).entities.map(\.name) == ["Note"])
    }

    @Test func everythingCloneCannotRepresentIsRefusedByName() throws {
        let problems = try Self.problems(
            Self.contents(
                """
                <entity name="Invoice" syncable="YES">
                    <attribute name="amount" optional="YES" attributeType="Undefined"/>
                    <attribute name="colour" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                    <attribute name="total" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="lines.@sum.amount" usesScalarValueType="YES"/>
                    <attribute name="scratch" optional="YES" transient="YES" attributeType="Transformable"/>
                    <fetchedProperty name="recent" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Invoice" predicateString="amount &gt; 0"/>
                    </fetchedProperty>
                </entity>
                """))
        let named = Set(problems.map { "\($0.entity ?? "-").\($0.property ?? "-")" })
        #expect(named.isSuperset(of: ["Invoice.amount", "Invoice.total", "Invoice.recent"]), "\(problems)")
        #expect(!named.contains("Invoice.colour"), "a Transformable is stored as its archived bytes")
        #expect(!named.contains("Invoice.scratch"), "a transient attribute is not stored, so its type does not matter")
        let text = problems.map(\.description).joined(separator: "\n")
        #expect(text.contains("Undefined cannot be represented") && !text.contains("Transformable cannot be represented"))
        #expect(text.contains("derived attributes") && text.contains("fetched properties"))
    }

    @Test func modelRulesApplyAsToAModelFile() throws {
        // A required attribute excluded without a default, an inverse that does not point back, and
        // `share` on a relationship whose inverse is to-one: the model file's own messages.
        let problems = try Self.problems(
            Self.contents(
                """
                <entity name="Note" syncable="YES">
                    <attribute name="code" attributeType="String">
                        <userInfo><entry key="exclude" value="YES"/></userInfo>
                    </attribute>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="note" inverseEntity="Item">
                        <userInfo><entry key="clone" value="share"/></userInfo>
                    </relationship>
                </entity>
                <entity name="Item" syncable="YES">
                    <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="other" inverseEntity="Note"/>
                </entity>
                """))
        let named = Set(problems.map { "\($0.entity ?? "-").\($0.property ?? "-")" })
        #expect(named.isSuperset(of: ["Note.code", "Note.items", "Item.note"]), "\(problems)")
    }

    @Test func malformedXMLNamesTheLine() throws {
        let problems = try Self.problems("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"Note\">\n</model>\n")
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("malformed XML at line") == true, "\(problems)")
    }

    @Test func externalEntitiesAreNotResolved() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-secret-\(UUID().uuidString)")
        try Data("Leaked".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE model [<!ENTITY leak SYSTEM "file://\(secret.path)">]>
            <model><entity name="Note"><attribute name="x" optional="YES" attributeType="String" defaultValueString="&leak;"/></entity></model>
            """
        let (url, cleanUp) = try Self.modelFolder(xml)
        defer { cleanUp() }
        let loaded = try? ModelLoader.load(contentsOf: url)
        let value = loaded?.entity(named: "Note")?.attribute(named: "x")?.defaultValue
        #expect(value != .string("Leaked"), "an external entity pulled a file of the host into the model")
    }
}
