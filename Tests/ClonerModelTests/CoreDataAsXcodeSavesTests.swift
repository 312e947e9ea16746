import Foundation
import Testing
@testable import ClonerModel

/// Core Data models as Xcode really saves them (docs/architecture.md#core-data-models): the
/// defaults it leaves behind, integer widths, collection names, compiled models, configurations and
/// Renaming IDs. Each fixture under Tests/Fixtures/CoreData shows one feature.
@Suite struct CoreDataAsXcodeSavesTests {
    static let fixtures = CoreDataModelTests.fixtures

    static func attribute(_ model: DataModel, _ entity: String, _ name: String) throws -> AttributeDescription {
        try #require(model.entity(named: entity)?.attribute(named: name))
    }

    /// The problems loading `url` reports, and the whole error's text.
    static func failure(_ url: URL) -> (problems: [ModelProblem], text: String) {
        do {
            _ = try ModelLoader.load(contentsOf: url)
            return ([], "")
        } catch {
            return (error.problems, error.description)
        }
    }

    // MARK: Defaults and integer widths

    @Test func defaultsXcodeLeavesBehindLoadWithMomcsValues() throws {
        let model = try ModelLoader.load(contentsOf: Self.fixtures.appendingPathComponent("Defaults.xcdatamodel"))
        let expected: [String: AttributeValue] = [
            "done": .boolean(false), "enabled": .boolean(true), "flagged": .boolean(true),
            "large": .integer(0), "medium": .integer(1), "small": .integer(0),
            "truncated": .integer(2), "negative": .integer(-2), "yes": .integer(1), "no": .integer(0),
        ]
        for (name, value) in expected {
            #expect(try Self.attribute(model, "Counter", name).defaultValue == value, "\(name)")
        }
        #expect(try Self.attribute(model, "Counter", "small").integerWidth == .bits16)
        #expect(try Self.attribute(model, "Counter", "medium").integerWidth == .bits32)
        #expect(try Self.attribute(model, "Counter", "large").integerWidth == .bits64)
    }

    @Test func integerWidthsBoundTheValues() {
        let small = AttributeDescription(name: "count", type: .integer, integerWidth: .bits16)
        #expect(small.valueProblem(.integer(100_000)) == "100000 is outside Integer 16's range -32768…32767")
        #expect(small.valueProblem(.integer(32767)) == nil && small.valueProblem(.integer(-32768)) == nil)
        #expect(small.valueProblem(.null) == nil)
        let medium = AttributeDescription(name: "count", type: .integer, integerWidth: .bits32)
        #expect(medium.valueProblem(.integer(2_147_483_648)) == "2147483648 is outside Integer 32's range -2147483648…2147483647")
        #expect(AttributeDescription(name: "count", type: .integer).valueProblem(.integer(.max)) == nil)
    }

    @Test func aDefaultOutsideTheWidthIsAModelErrorAtItsLine() throws {
        let xml = CoreDataModelTests.contents(
            #"""
            <entity name="Counter" syncable="YES">
                <attribute name="small" attributeType="Integer 16" defaultValueString="40000" usesScalarValueType="YES"/>
                <attribute name="word" attributeType="Integer 32" defaultValueString="many" usesScalarValueType="YES"/>
            </entity>
            """#)
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(xml)
        defer { cleanUp() }
        let (problems, text) = Self.failure(url)
        let contents = url.appendingPathComponent("contents").path
        #expect(problems.count == 2, "\(text)")
        #expect(text.contains("Counter.small: default 40000 is outside Integer 16's range -32768…32767 (at \(contents):4, Default Value)"), "\(text)")
        #expect(text.contains("Counter.word:") && text.contains("(at \(contents):5, Default Value)"), "\(text)")
        #expect(!text.contains("entities["), "no path into a JSON the author never saw: \(text)")
    }

    @Test func modelFileIntegersTakeBits() throws {
        let model = try load(modelText(#"{"name": "Note", "attributes": [{"name": "n", "type": "integer", "bits": 16, "default": -32768}]}"#))
        #expect(model.entity(named: "Note")?.attribute(named: "n")?.integerWidth == .bits16)
        #expect(model.normalizedText.contains("\"bits\": 16"), "\(model.normalizedText)")
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "n", "type": "integer", "bits": 16, "default": 40000}]}"#),
            entity: "Note", property: "n", containing: ["default 40000 is outside Integer 16's range", "entities[0].attributes[0].default"])
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "n", "type": "string", "bits": 16}]}"#),
            entity: "Note", property: "n", containing: ["bits applies to integer attributes only"])
        expectSingleProblem(
            modelText(#"{"name": "Note", "attributes": [{"name": "n", "type": "integer", "bits": 8}]}"#),
            entity: "Note", property: "n", containing: ["bits must be one of 16, 32, 64"])
        let plain = try load(modelText(#"{"name": "Note", "attributes": [{"name": "n", "type": "integer"}]}"#))
        #expect(!plain.normalizedText.contains("bits"), "a 64-bit integer keeps the normalised form (and fingerprint) it had")
    }

    // MARK: Problems in the XML's terms

    @Test func everyProblemNamesTheContentsFileAndLine() throws {
        let xml = CoreDataModelTests.contents(
            #"""
            <entity name="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note">
                    <userInfo><entry key="followParent" value="id"/></userInfo>
                </relationship>
            </entity>
            <entity name="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="Undefined"/>
            </entity>
            """#)
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(xml)
        defer { cleanUp() }
        let (problems, text) = Self.failure(url)
        let contents = url.appendingPathComponent("contents").path
        #expect(
            text.contains("Note.owner: destination \"Person\" is not an entity of the model; the entities are Note, Note (at \(contents):5, Destination)"),
            "\(text)")
        #expect(text.contains("Note.items: followParent is an attribute rule") && text.contains("(at \(contents):6, User Info key followParent)"), "\(text)")
        #expect(text.contains("is declared twice (first at line 3) (at \(contents):10, Name)"), "\(text)")
        #expect(text.contains("Undefined cannot be represented") && text.contains("(at \(contents):11)"), "\(text)")
        #expect(!text.contains("entities["), "\(text)")
        #expect(text.split(separator: "\n").count == problems.count + 1, "one line per problem, after the header")
    }

    @Test func problemsOfAnEntityAreListedInLineOrder() throws {
        let xml = CoreDataModelTests.contents(
            #"""
            <entity name="Counter" syncable="YES">
                <attribute name="small" attributeType="Integer 16" defaultValueString="40000" usesScalarValueType="YES"/>
                <attribute name="shape" optional="YES" attributeType="Undefined"/>
                <attribute name="flag" attributeType="Boolean" defaultValueString="maybe" usesScalarValueType="YES"/>
            </entity>
            """#)
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(xml)
        defer { cleanUp() }
        let (problems, text) = Self.failure(url)
        #expect(problems.map(\.property) == ["small", "shape", "flag"], "\(text)")
        #expect(text.contains("default value \"maybe\" is not YES, NO or a number"), "\(text)")
    }

    @Test func aMessageQuotingLineBreaksStaysOnOneLine() {
        let error = ModelError(path: "m.json", problems: [ModelProblem(entity: "Note", message: "first\nsecond"), ModelProblem(message: "third")])
        #expect(error.description == "invalid model m.json:\n  - Note: first second\n  - third")
    }

    // MARK: Transformable

    @Test func transformableAttributesAreTheirArchivedBytes() throws {
        let model = try ModelLoader.load(contentsOf: Self.fixtures.appendingPathComponent("Transformable.xcdatamodel"))
        let entity = try #require(model.entity(named: "Preference"))
        #expect(entity.attribute(named: "value")?.type == .binary, "a transformer's archive is a binary value")
        #expect(entity.attribute(named: "colours")?.type == .binary)
        #expect(entity.attribute(named: "colours")?.isOptional == false)
        #expect(entity.attribute(named: "cache") == nil, "a transient Transformable is not stored")
    }

    // MARK: Collections

    @Test func collectionsAreEnglishPluralsOrTheUserInfoEntry() throws {
        let model = try ModelLoader.load(contentsOf: Self.fixtures.appendingPathComponent("Collections.xcdatamodel"))
        let collections = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, $0.collection) })
        #expect(
            collections == [
                "Address": "addresses", "Batch": "batches", "Category": "categories", "Day": "days", "Person": "people",
                "Settings": "settings", "Status": "statuses",
            ])
        let rule = ["Box": "boxes", "Quiz": "quizes", "Wish": "wishes", "Key": "keys", "Note": "notes", "ItemData": "itemdatas", "News": "news"]
        for (name, collection) in rule { #expect(EntityDescription.defaultCollection(for: name) == collection, "\(name)") }
    }

    @Test func theSampleModelsCollectionsDoNotChange() throws {
        let model = try ModelLoader.load(contentsOf: sampleModelURL)
        #expect(model.entities.map(\.collection) == ["notes", "items", "itemdata", "memos", "tags", "attachments", "descriptions"])
    }

    @Test func twoEntitiesWithOneCollectionAreNamedBoth() throws {
        let xml = CoreDataModelTests.contents(
            #"""
            <entity name="Setting" syncable="YES"><attribute name="key" optional="YES" attributeType="String"/></entity>
            <entity name="Settings" syncable="YES"><attribute name="theme" optional="YES" attributeType="String"/></entity>
            """#)
        let (url, cleanUp) = try CoreDataModelTests.modelFolder(xml)
        defer { cleanUp() }
        let (problems, text) = Self.failure(url)
        #expect(problems.count == 1, "\(text)")
        #expect(
            problems.first?.entity == "Settings" && text.contains("duplicate collection \"settings\", already used by entity Setting (at line 3)"), "\(text)")
    }

    // MARK: What is not a model's source

    @Test func compiledModelsSayWhatToGiveInstead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-compiled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled = try PropertyListSerialization.data(fromPropertyList: ["NSManagedObjectModel_VersionHashes": [:]], format: .binary, options: 0)
        let momd = folder.appendingPathComponent("Notes.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        let mom = momd.appendingPathComponent("Notes.mom")
        try compiled.write(to: mom)
        let renamed = folder.appendingPathComponent("model-from-the-app")
        try compiled.write(to: renamed)
        for url in [momd, mom] {
            let (problems, text) = Self.failure(url)
            #expect(
                problems.count == 1 && text.contains("compiled Core Data model (.\(url.pathExtension)")
                    && text.contains(".xcdatamodeld folder from the Xcode project"), "\(text)")
        }
        let (_, text) = Self.failure(renamed)
        #expect(text.contains("binary property list") && !text.contains("JSON"), "\(text)")
    }

    @Test func aModelSavedByXcode3SaysToResaveIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-xcode3-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Old.xcdatamodeld")
        let version = bundle.appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("binary archive".utf8).write(to: version.appendingPathComponent("elements"))
        for url in [bundle, version] {
            let (problems, text) = Self.failure(url)
            #expect(problems.count == 1 && text.contains("saved by Xcode 3 or older") && text.contains("save it"), "\(text)")
        }
        try FileManager.default.removeItem(at: version.appendingPathComponent("elements"))
        #expect(Self.failure(version).text.contains("no contents file"))
    }

    @Test func configurationsFetchRequestsAndLayoutAreNotRead() throws {
        let model = try ModelLoader.load(contentsOf: Self.fixtures.appendingPathComponent("Configurations.xcdatamodel"))
        #expect(model.entities.map(\.name) == ["Task"])
        #expect(try Self.attribute(model, "Task", "done").defaultValue == .boolean(false))
    }

    // MARK: Renaming IDs

    @Test func renamingIDsAreReadForEntitiesRelationshipsAndAttributes() throws {
        let url = Self.fixtures.appendingPathComponent("Renaming.xcdatamodel")
        let model = try ModelLoader.load(contentsOf: url)
        let folder = try #require(model.entity(named: "Folder"))
        #expect(folder.renamingID == "Directory")
        #expect(folder.relationship(named: "documents")?.renamingID == "files")
        #expect(folder.attribute(named: "subtitle")?.renamingID == "caption")
        #expect(folder.attribute(named: "subtitle")?.originalName == "caption", "an unambiguous rename reaches the migrator")
        // heading and title swap names: allowed, as in Core Data, and read, but no column rename.
        #expect(folder.attribute(named: "heading")?.renamingID == "title" && folder.attribute(named: "heading")?.originalName == nil)
        #expect(folder.attribute(named: "title")?.renamingID == "heading" && folder.attribute(named: "title")?.originalName == nil)
        #expect(model.entity(named: "Document")?.attribute(named: "name")?.renamingID == nil, "a Renaming ID equal to the name says nothing")
        #expect(model.entity(named: "Document")?.renamingID == nil)

        let document = try ModelLoader.importCoreDataModel(contentsOf: url)
        let viaFile = try ModelLoader.load(data: Data(document.prettyText.utf8))
        #expect(viaFile == model && viaFile.fingerprint == model.fingerprint)
        #expect(model.normalizedText.contains("\"renamingID\": \"files\""))
    }
}
