// swift-tools-version:6.0
// Only the code generator, pinned, so the client package itself needs nothing heavier than the
// runtime and the URLSession transport. `../generate.sh` runs it.
import PackageDescription

let package = Package(
    name: "cloner-client-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ]
)
