import Foundation
import Testing

@testable import ClonerModel

/// Relationships into an inheritance hierarchy (docs/architecture.md#relationships-into-a-hierarchy):
/// a relationship to an abstract entity is stored as one part per concrete descendant, each with
/// the inverse that points back at its source; the declaration is kept for the API and the
/// normalised model; the concrete entities of a hierarchy share one `_id` space.
@Suite struct HierarchyRelationshipTests {
    /// Tests/Fixtures/Hierarchy/Publishing.json: posts and pages under an abstract `BasePost` under
    /// an abstract `Content`, blogs, tags and comments pointing at `BasePost`, and collections that nest
    /// through their abstract parent.
    static let publishingURL = CoreDataModelTests.fixtures.deletingLastPathComponent().appendingPathComponent("Hierarchy/Publishing.json")

    static func publishing() throws -> DataModel { try ModelLoader.load(contentsOf: publishingURL) }

    static func names(_ relationships: [RelationshipDescription]) -> [String] { relationships.map(\.name) }

    @Test func aRelationshipToAnAbstractEntityIsOnePartPerConcreteDescendant() throws {
        let model = try Self.publishing()
        #expect(model.entities.map(\.name) == ["Post", "Page", "Blog", "Tag", "Comment", "Folder", "SmartFolder"])
        let comment = try #require(model.entity(named: "Comment"))
        #expect(Self.names(comment.relationships) == ["post__Post", "post__Page"])
        let part = try #require(comment.relationship(named: "post__Page"))
        #expect(part.destination == "Page" && part.inverseName == "comments" && part.isOptional, "each part alone is optional: \(part)")
        #expect(part.fieldName == "post" && part.isHierarchyPart)
        #expect(part.declaration == RelationshipDeclaration(name: "post", destination: "BasePost", inverseName: "comments", isOptional: false))
        #expect(comment.hierarchyFieldNames == ["post"] && comment.relationshipParts(ofField: "post").map(\.destination) == ["Post", "Page"])

        let page = try #require(model.entity(named: "Page"))
        #expect(Self.names(page.relationships) == ["comments", "blog", "previous__Post", "previous__Page", "tags"], "declared at every level, root first")
        let comments = try #require(page.relationship(named: "comments"))
        #expect(comments.inverseName == "post__Page" && !comments.isHierarchyPart, "a concrete destination keeps its name; its inverse is the part")
        #expect(page.relationship(named: "blog")?.inverseName == "posts__Page")
        #expect(page.relationship(named: "tags")?.inverseName == "posts__Page", "a many-to-many's inverse is the part too")
        #expect(page.attributes.map(\.name) == ["uuid", "title", "published", "slug"])
        #expect(page.parent == "BasePost" && page.hierarchy == "Content")

        let blog = try #require(model.entity(named: "Blog"))
        #expect(Self.names(blog.relationships) == ["posts__Post", "posts__Page", "featured__Post", "featured__Page"])
        #expect(blog.relationship(named: "featured__Page")?.isOrdered == true)
        #expect(blog.relationship(named: "featured__Page")?.cloneRule.ownershipOverride == .share, "the declared clone rule holds for each part")
        #expect(blog.hierarchy == nil && model.entitiesSharingIDs(with: "Blog") == ["Blog"])
        #expect(model.entitiesSharingIDs(with: "Page") == ["Post", "Page"])
    }

    @Test func aSelfReferenceThroughTheParentPairsEveryPart() throws {
        let model = try Self.publishing()
        let folder = try #require(model.entity(named: "Folder"))
        let smart = try #require(model.entity(named: "SmartFolder"))
        #expect(Self.names(folder.relationships) == ["parent__Folder", "parent__SmartFolder", "subcollections__Folder", "subcollections__SmartFolder"])
        #expect(folder.relationship(named: "parent__SmartFolder")?.inverseName == "subcollections__Folder")
        #expect(smart.relationship(named: "subcollections__Folder")?.inverseName == "parent__SmartFolder")
        #expect(model.inverse(of: try #require(folder.relationship(named: "parent__SmartFolder")))?.source == "SmartFolder")
        #expect(model.entitiesSharingIDs(with: "Folder") == ["Folder", "SmartFolder"])
    }

    @Test func abstractEntitiesKeepReadOnlyCollectionsAndTheirSharedAttributes() throws {
        let model = try Self.publishing()
        #expect(model.abstractEntities.map(\.name) == ["Content", "BasePost", "Collection"])
        let basePost = try #require(model.abstractEntity(forCollection: "baseposts"))
        #expect(basePost.concreteEntities == ["Post", "Page"] && basePost.parent == "Content")
        #expect(basePost.attributes.map(\.name) == ["uuid", "title", "published"])
        #expect(model.abstractEntity(named: "Content")?.concreteEntities == ["Post", "Page"])
        #expect(model.concreteEntities(named: "Collection") == ["Folder", "SmartFolder"])
        #expect(model.concreteEntities(named: "Blog") == ["Blog"])
    }

    @Test func theNormalisedModelSpeaksTheDeclarationAndLoadsAgainAsItIs() throws {
        let model = try Self.publishing()
        let text = model.normalizedText
        #expect(!text.contains("post__Post"), "parts are the store's: \(text.prefix(400))")
        let entities = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["entities"] as? [[String: Any]])
        let basePost = try #require(entities.first { $0["name"] as? String == "BasePost" })
        #expect(basePost["abstract"] as? Bool == true && basePost["collection"] as? String == "baseposts")
        #expect(entities.first { $0["name"] as? String == "Post" }?["parent"] as? String == "BasePost")
        let again = try ModelLoader.load(data: Data(text.utf8))
        #expect(again == model)
        #expect(again.fingerprint == model.fingerprint)
    }

    @Test func whatCannotBeStoredIsStillRefusedByName() throws {
        let text = try String(contentsOf: Self.publishingURL, encoding: .utf8)
        let orphan = text.replacingOccurrences(
            of: #"{ "name": "Folder", "parent": "Collection" },"#,
            with:
                #"{ "name": "Folder", "parent": "Collection" }, { "name": "Draft", "abstract": true }, { "name": "Note", "relationships": [ { "name": "draft", "destination": "Draft" } ] },"#
        )
        let problems = EntityInheritanceTests.problems(orphan)
        #expect(problems.contains { $0.hasPrefix("Note.draft: destination Draft is an abstract entity with no sub-entities") }, "\(problems)")

        let allAbstract = text.replacingOccurrences(
            of: #"{ "name": "Folder", "parent": "Collection" },"#,
            with:
                #"{ "name": "Folder", "parent": "Collection" }, { "name": "Shelf", "abstract": true }, { "name": "Box", "parent": "Shelf", "abstract": true }, { "name": "Label", "relationships": [ { "name": "shelf", "destination": "Shelf" } ] },"#
        )
        #expect(
            EntityInheritanceTests.problems(allAbstract).contains { $0.hasPrefix("Label.shelf: destination Shelf is abstract and so is every entity under it") }
        )

        let astray = text.replacingOccurrences(
            of: #"{ "name": "comments", "destination": "Comment", "toMany": true, "inverse": "post", "deleteRule": "cascade" }"#,
            with:
                #"{ "name": "comments", "destination": "Comment", "toMany": true, "inverse": "post", "deleteRule": "cascade" }, { "name": "folder", "destination": "Folder", "inverse": "items" }"#
        ).replacingOccurrences(
            of: #"{ "name": "Folder", "parent": "Collection" }"#,
            with:
                #"{ "name": "Folder", "parent": "Collection", "relationships": [ { "name": "items", "destination": "Collection", "toMany": true, "inverse": "folder" } ] }"#
        )
        let astrayProblems = EntityInheritanceTests.problems(astray)
        #expect(
            astrayProblems.contains { $0.contains("does not point back: its destination is Collection, neither Post nor an entity Post inherits from") },
            "\(astrayProblems)")

        let clash = text.replacingOccurrences(
            of: #""name": "BasePost", "parent": "Content", "abstract": true"#,
            with: #""name": "BasePost", "parent": "Content", "abstract": true, "collection": "blogs""#)
        #expect(EntityInheritanceTests.problems(clash).contains { $0.contains(#"its collection "blogs" is Blog's too"#) })
    }

    /// The same model as Xcode saves it (Tests/Fixtures/CoreData/Publishing.xcdatamodeld).
    @Test func theCoreDataModelReadsAsTheModelFile() throws {
        let coreData = try ModelLoader.load(contentsOf: CoreDataModelTests.fixtures.appendingPathComponent("Publishing.xcdatamodeld"))
        let file = try Self.publishing()
        #expect(coreData.entities.map(\.name) == file.entities.map(\.name))
        for entity in file.entities {
            let read = try #require(coreData.entity(named: entity.name))
            #expect(read.relationships.map(\.name) == entity.relationships.map(\.name), "\(entity.name)")
            #expect(read.relationships.map(\.inverseName) == entity.relationships.map(\.inverseName), "\(entity.name)")
            #expect(read.relationships.map(\.isOrdered) == entity.relationships.map(\.isOrdered), "\(entity.name)")
            #expect(read.relationships.map(\.naturalKey) == entity.relationships.map(\.naturalKey), "\(entity.name)")
            #expect(read.relationships.map(\.declaration) == entity.relationships.map(\.declaration), "\(entity.name)")
            #expect(read.attributes.map(\.name) == entity.attributes.map(\.name), "\(entity.name)")
        }
        #expect(coreData.abstractEntities.map(\.concreteEntities) == file.abstractEntities.map(\.concreteEntities))
    }
}
