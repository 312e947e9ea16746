import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A whole store whose model has an inheritance hierarchy, moved between stores
/// (docs/architecture.md#relationships-into-a-hierarchy): the hierarchy's one `_id` space moves
/// with it, so a create after the move gets an id no object of the hierarchy ever had, a deleted
/// one's included, and the links into the hierarchy arrive part for part, an ordered list's places
/// in the declared list with them.
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
        // An ordered list over both entities: [page, post, page], each part placed in the whole list.
        let more = try from.insert([
            ChangeSet.Insert(entity: "Post", attributes: ["title": .string("p2")]),
            ChangeSet.Insert(entity: "Page", attributes: ["title": .string("g2")]),
        ])
        var interleave = ChangeSet.Update(
            entity: "Blog", id: blog,
            relationships: ["posts__Post": .toMany([.existing(posts[0])]), "posts__Page": .toMany([.existing(more[1]), .existing(posts[1])])])
        interleave.places = ["posts__Post": [1], "posts__Page": [0, 2]]
        try from.store.write { context in _ = try context.save(ChangeSet(updates: [interleave])) }

        let (document, exported) = try StoreMoveTests.export(from.store)
        let into = try CloneFixture(target, model: model)
        #expect(try StoreMoveTests.import(document, into: into.store) == exported)
        #expect(try into.toMany("Blog", blog, "posts__Post") == [posts[0]] && (try into.toMany("Blog", blog, "posts__Page")) == [more[1], posts[1]])
        let blogs = try into.store.read { try $0.fetchRecords(entity: "Blog", ids: [blog]) }
        let parts = ["posts__Post", "posts__Page"].map { name in blogs.entity.relationships.firstIndex { $0.name == name }! }
        #expect(parts.map { blogs.places(record: 0, relationship: $0) } == [[1], [0, 2]], "each part's places in the whole list moved as stored")
        #expect(try into.toMany("Page", posts[1], "comments").count == 1)

        let next = try into.insert([
            ChangeSet.Insert(entity: "Post", attributes: ["title": .string("after")]),
            ChangeSet.Insert(entity: "Page", attributes: ["title": .string("after")]),
        ])
        #expect(next.allSatisfy { $0 > posts[2] } && Set(next).count == 2, "after every id the hierarchy issued, the deleted page's too: \(next) \(posts)")
    }
}
