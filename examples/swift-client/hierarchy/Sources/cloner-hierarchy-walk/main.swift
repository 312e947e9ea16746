import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

// Usage: cloner-hierarchy-walk SERVER_URL (a service without API keys, on the Publishing model).
// Creates an object of each concrete entity with the generated client, nested ones among them,
// decodes every answer, and reads posts and pages back through the abstract collection, whose
// answers the client tells apart by `_entity`. Exits 1 at the first answer not as expected.

struct Unexpected: Error, CustomStringConvertible { var description: String }

func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    if !condition { throw Unexpected(description: what()) }
}

guard CommandLine.arguments.count == 2, let serverURL = URL(string: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: cloner-hierarchy-walk SERVER_URL\n".utf8))
    exit(2)
}
// The service writes dates with milliseconds, which the runtime's default transcoder rejects.
let api = Client(
    serverURL: serverURL, configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds), transport: URLSessionTransport())

do {
    let blog = try await api.createBlog(body: .json(.init(name: "news"))).created.body.json
    // A post with a comment nested in it: the comment leaves out the post it is created in.
    let post = try await api.createPost(
        body: .json(.init(blog: .case1(blog._id), comments: [.CommentCreateUnderPost(.init(text: "first"))], title: "hello"))
    ).created.body.json
    try expect(post._entity == .post && post.comments.count == 1, "a post with its comment: \(post)")
    // A page whose `previous` (declared to the abstract BasePost) is the post.
    let page = try await api.createPage(
        body: .json(.init(blog: .case1(blog._id), previous: .case1(post._id), slug: "about", title: "about"))
    ).created.body.json
    try expect(page._entity == .page && page.previous == post._id && page._id != post._id, "a page after the post: \(page)")
    let comment = try await api.createComment(body: .json(.init(post: .ObjectID(page._id), text: "on the page"))).created.body.json
    try expect(comment.post == page._id, "a comment on the page: \(comment)")
    // A new page nested in a comment's `post`: one of BasePost's concrete creates, named by `_entity`.
    let nested = try await api.createComment(
        body: .json(.init(post: .BasePostCreate(.PageCreate(.init(_entity: .page, title: "made with it"))), text: "a new page"))
    ).created.body.json
    let folder = try await api.createFolder(body: .json(.init(name: "root"))).created.body.json
    let smart = try await api.createSmartFolder(body: .json(.init(name: "recent", parent: .case1(folder._id), query: "new"))).created.body.json
    try expect(smart.parent == folder._id, "a smart folder in a folder: \(smart)")

    guard case .page(let read) = try await api.getBasePost(path: .init(id: page._id)).ok.body.json, read._id == page._id else {
        throw Unexpected(description: "GET /baseposts/\(page._id) did not decode as the page")
    }
    let listed = try await api.listBasePost().ok.body.json.data.map { record -> String in
        switch record {
        case .post(let post): return "Post \(post._id)"
        case .page(let page): return "Page \(page._id)"
        }
    }
    let madePage = try nested.post.map { "Page \($0)" } ?? { throw Unexpected(description: "the nested page's comment has no post") }()
    try expect(listed == ["Post \(post._id)", "Page \(page._id)", madePage], "posts and pages in _id order: \(listed)")
    let blogRead = try await api.getBlog(path: .init(id: blog._id)).ok.body.json
    try expect(Set(blogRead.posts) == [post._id, page._id], "the blog's posts and pages: \(blogRead.posts)")
    print("hierarchy walk: created and decoded a Blog, Post, Page, Comment, Folder and SmartFolder; read \(listed.joined(separator: ", ")) from /baseposts")
} catch {
    FileHandle.standardError.write(Data("hierarchy walk failed: \(error)\n".utf8))
    exit(1)
}
