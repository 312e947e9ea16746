import ClonerModel
import Foundation
import Testing

/// Entity inheritance in the model file (`parent`, `abstract`) and as Xcode saves it (`parentEntity`,
/// `isAbstract`): each concrete entity carries its ancestors' properties, groups and clone rules
/// before its own; abstract entities leave the model; what cannot be stored is refused by name.
@Suite struct EntityInheritanceTests {
    /// Three levels: an abstract root (an id made anew on clone, a creation date), an abstract
    /// middle (a title, tags out of the hierarchy), and two concrete leaves with their own
    /// properties, one owning items.
    static let hierarchy = """
        { "entities": [
          { "name": "Record", "abstract": true,
            "attributes": [
              { "name": "uuid", "type": "uuid", "unique": true, "userInfo": { "rebuild": "uuid" } },
              { "name": "createdAt", "type": "date", "optional": true, "userInfo": { "rebuild": "now" } } ] },
          { "name": "Document", "parent": "Record", "abstract": true,
            "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [ { "name": "tags", "destination": "Tag", "toMany": true, "userInfo": { "clone": "share" } } ],
            "uniqueTogether": [ [ "title", "createdAt" ] ] },
          { "name": "Note", "parent": "Document",
            "attributes": [ { "name": "body", "type": "string", "optional": true } ],
            "relationships": [ { "name": "items", "destination": "Item", "toMany": true, "ordered": true, "inverse": "note", "deleteRule": "cascade" } ] },
          { "name": "Page", "parent": "Document", "attributes": [ { "name": "url", "type": "string", "optional": true } ] },
          { "name": "Tag", "attributes": [ { "name": "label", "type": "string", "optional": true } ] },
          { "name": "Item", "attributes": [ { "name": "text", "type": "string", "optional": true } ],
            "relationships": [ { "name": "note", "destination": "Note", "inverse": "items" } ] } ] }
        """

    static func load(_ text: String) throws(ModelError) -> DataModel {
        try ModelLoader.load(data: Data(text.utf8))
    }

    static func problems(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func concreteEntitiesCarryTheirAncestorsPropertiesRootFirst() throws {
        let model = try Self.load(Self.hierarchy)
        #expect(model.entities.map(\.name) == ["Note", "Page", "Tag", "Item"], "abstract entities have no objects, so no table")
        let note = try #require(model.entity(named: "Note"))
        #expect(note.attributes.map(\.name) == ["uuid", "createdAt", "title", "body"])
        #expect(note.relationships.map(\.name) == ["tags", "items"])
        #expect(note.uniqueTogether == [["title", "createdAt"]])
        #expect(note.collection == "notes")
        let page = try #require(model.entity(named: "Page"))
        #expect(page.attributes.map(\.name) == ["uuid", "createdAt", "title", "url"])
        #expect(page.relationship(named: "tags")?.source == "Page", "an inherited relationship is the sub-entity's own")
        #expect(page.attribute(named: "uuid")?.isUnique == true)
        #expect(page.attribute(named: "uuid")?.cloneRule == note.attribute(named: "uuid")?.cloneRule)
        #expect(page.attribute(named: "uuid")?.cloneRule != AttributeCloneRule(), "a rule in the root's user info applies to every leaf")
        #expect(page.relationship(named: "tags")?.cloneRule == note.relationship(named: "tags")?.cloneRule)
        #expect(try Self.load(model.normalizedText) == model, "the resolved model loads again as it is")
    }

    @Test func whatCannotBeStoredIsRefusedByName() throws {
        let toParent = Self.hierarchy.replacingOccurrences(
            of: #"{ "name": "note", "destination": "Note", "inverse": "items" }"#,
            with: #"{ "name": "note", "destination": "Note", "inverse": "items" }, { "name": "source", "destination": "Document" }"#)
        let item = try #require(try Self.load(toParent).entity(named: "Item"))
        #expect(item.relationships.map(\.name) == ["note", "source__Note", "source__Page"], "a parent destination is stored per concrete entity")

        let concreteParent = Self.hierarchy.replacingOccurrences(of: #""parent": "Record", "abstract": true"#, with: #""parent": "Record""#)
        #expect(Self.problems(concreteParent).contains { $0.hasPrefix("Document: has sub-entities (Note, Page) but objects of its own") })

        let unknown = Self.hierarchy.replacingOccurrences(of: #""parent": "Record""#, with: #""parent": "Entry""#)
        #expect(Self.problems(unknown).contains { $0.hasPrefix(#"Document: parent "Entry" is not an entity of the model"#) })

        let cycle = Self.hierarchy.replacingOccurrences(
            of: #""name": "Record", "abstract": true"#, with: #""name": "Record", "parent": "Note", "abstract": true"#)
        #expect(Self.problems(cycle).contains { $0.contains("its parents form a cycle") })

        let again = Self.hierarchy.replacingOccurrences(
            of: #"{ "name": "url", "type": "string", "optional": true }"#, with: #"{ "name": "title", "type": "string" }"#)
        #expect(
            Self.problems(again) == ["Page.title: title is inherited from Document; a sub-entity cannot declare it again (at entities[3].attributes[0].name)"])
    }

    @Test func xcodesParentEntityAndAbstractEntityReadTheSame() throws {
        let xml = CoreDataModelTests.contents(
            """
            <entity name="Record" representedClassName="Record" isAbstract="YES" syncable="YES">
                <attribute name="uuid" optional="YES" attributeType="UUID" usesScalarValueType="NO">
                    <userInfo><entry key="rebuild" value="uuid"/></userInfo>
                </attribute>
            </entity>
            <entity name="Document" representedClassName="Document" parentEntity="Record" isAbstract="YES" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Note" representedClassName="Note" parentEntity="Document" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Comment" representedClassName="Comment" syncable="YES">
                <relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Document"/>
            </entity>
            """)
        let (toParent, cleanUpParent) = try CoreDataModelTests.modelFolder(xml)
        defer { cleanUpParent() }
        let comment = try #require(try ModelLoader.load(contentsOf: toParent).entity(named: "Comment"))
        #expect(comment.relationships.map(\.name) == ["post__Note"] && comment.hierarchyFieldNames == ["post"], "\(comment.relationships)")

        let (url, cleanUp) = try CoreDataModelTests.modelFolder(
            xml.replacingOccurrences(of: #"destinationEntity="Document""#, with: #"destinationEntity="Note""#))
        defer { cleanUp() }
        let model = try ModelLoader.load(contentsOf: url)
        #expect(model.entities.map(\.name) == ["Note", "Comment"])
        #expect(model.entity(named: "Note")?.attributes.map(\.name) == ["uuid", "title", "body"])
    }
}
