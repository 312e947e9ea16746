// swift-tools-version:6.0
// A Swift client of Cloner generated from the document a service serves for a model with entity
// inheritance (Tests/Fixtures/Hierarchy/Publishing.json): posts and pages under an abstract
// BasePost, comments and blogs pointing at it, folders nesting through an abstract Collection.
// Its generated code is not committed: `.ci/swift-client.sh` writes it into
// Sources/cloner-hierarchy-walk/Generated from a running service, builds this package and walks.
import PackageDescription

let package = Package(
    name: "cloner-hierarchy-client",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "cloner-hierarchy-walk", targets: ["cloner-hierarchy-walk"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
    ],
    targets: [
        .executableTarget(
            name: "cloner-hierarchy-walk",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ]
        )
    ]
)
