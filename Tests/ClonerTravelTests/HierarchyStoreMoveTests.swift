import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A whole store whose model has an inheritance hierarchy, moved between stores
/// (docs/architecture.md#relationships-into-a-hierarchy): the hierarchy's one `_id` space moves
/// with it, so a create after the move gets an id no object of the hierarchy ever had, a deleted
/// one's included, and the links into the hierarchy arrive part for part.
@Suite struct HierarchyStoreMoveTests {
    static let publishingURL = CloneFixture.sampleModelURL.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/Hierarchy/Publishing.json")

    @Test(arguments: StoreBackendKind.available)
    func theIDSpaceOfAHierarchyMovesWithTheStore(_ target: StoreBackendKind) throws {
        let model = try ModelLoader.load(contentsOf: Self.publishingURL)
        let from = try CloneFixture(.sqlite, model: model)
        let blog = try from.insert([ChangeSet.Insert(entity: "Blog", attributes: ["name": .string("news")])])[0]
        let posts = try from.insert([
            ChangeSet.Insert(entity: "Post", attributes: ["title": .string("p")], relationships: ["blog": .toOne(.existing(blog))]),
            ChangeSet.Insert(entity: "Page", attributes: ["title": .string("g")], relationships: ["blog": .toOne(.existing(blog))]),
            ChangeSet.Insert(entity: "Page", attributes: ["title": .string("gone")]),
        ])
        #expect(Set(posts).count == 3, "a post and two pages, one id space: \(posts)")
        try from.store.write { context in _ = try context.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Page", id: posts[2])])) }
        _ = try from.insert([ChangeSet.Insert(entity: "Comment", relationships: ["post__Page": .toOne(.existing(posts[1]))])])

        let (document, exported) = try StoreMoveTests.export(from.store)
        let into = try CloneFixture(target, model: model)
        #expect(try StoreMoveTests.import(document, into: into.store) == exported)
        #expect(try into.toMany("Blog", blog, "posts__Post") == [posts[0]] && (try into.toMany("Blog", blog, "posts__Page")) == [posts[1]])
        #expect(try into.toMany("Page", posts[1], "comments").count == 1)

        let next = try into.insert([
            ChangeSet.Insert(entity: "Post", attributes: ["title": .string("after")]),
            ChangeSet.Insert(entity: "Page", attributes: ["title": .string("after")]),
        ])
        #expect(next.allSatisfy { $0 > posts[2] } && Set(next).count == 2, "after every id the hierarchy issued, the deleted page's too: \(next) \(posts)")
    }
}
