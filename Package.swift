// swift-tools-version:6.0
// Cloner: an HTTP/1.1 microservice that deep-copies records of an object graph.
//
// One target per layer, so the compiler enforces the layering (docs/architecture.md#layers):
// ClonerModel <- ClonerStore <- ClonerClone <- ClonerTravel <- ClonerService -> ClonerHTTP; `cloner`
// wires them.
// ClonerHTTP depends on no Cloner target but ClonerConcurrency (a lock): it knows nothing of SQLite
// or the model.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "cloner",
    // Linux only: the HTTP server is built on epoll (CEpoll), so no Apple platform is claimed.
    products: [
        .executable(name: "cloner", targets: ["cloner"])
    ],
    dependencies: [
        // Structured logging with a swappable backend (we install a JSON-lines handler).
        // 1.16.2: the `LogHandler.log(event:)` requirement our JSON handler implements.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // `cloner serve` / `cloner check-model` with generated --help and env/flag handling.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // Metrics API + Prometheus text exposition for GET /metrics.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // PostgreSQL's client library, for the second store backend (docs/architecture.md#postgresql).
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "CEpoll"),

        // A lock the thread sanitizer understands (LockedValue.swift says why not `Mutex`).
        .target(name: "ClonerConcurrency", swiftSettings: strict),
        .target(name: "ClonerModel", swiftSettings: strict),
        .target(name: "ClonerStore", dependencies: ["ClonerModel", "CSQLite", "CLibPQ", "COpenSSL"], swiftSettings: strict),
        .target(name: "ClonerClone", dependencies: ["ClonerModel", "ClonerStore", "ClonerConcurrency"], swiftSettings: strict),
        // Graphs and whole stores that travel: export, import, the move from one store to another.
        .target(name: "ClonerTravel", dependencies: ["ClonerModel", "ClonerStore", "ClonerClone"], swiftSettings: strict),
        .target(name: "ClonerHTTP", dependencies: ["CEpoll", "COpenSSL", "ClonerConcurrency"], swiftSettings: strict),
        .target(
            name: "ClonerService",
            dependencies: [
                "ClonerModel", "ClonerStore", "ClonerClone", "ClonerTravel", "ClonerHTTP", "ClonerConcurrency", "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.embedInCode("Resources/openapi.yaml")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cloner",
            dependencies: [
                "ClonerService", "ClonerClone", "ClonerTravel", "ClonerStore", "ClonerModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The clone benchmark: the Cloner against a hand-written SQL copy (scripts/bench-clone.sh).
        .executableTarget(
            name: "clone-bench",
            dependencies: ["ClonerClone", "ClonerStore", "ClonerModel"],
            swiftSettings: strict
        ),

        // Tools, not shipped: the request parser's libFuzzer target (scripts/fuzz-parser.sh) and
        // the HTTP server benchmarked against Hummingbird 2 (scripts/bench-http.sh).
        .executableTarget(name: "http-parser-fuzz", dependencies: ["ClonerHTTP"], swiftSettings: strict),

        // Shared by test targets only: a throwaway PostgreSQL cluster per test process, a raw
        // HTTP client, temporary folders.
        .target(
            name: "ClonerTestSupport",
            dependencies: ["CLibPQ", "ClonerConcurrency"],
            path: "Tests/ClonerTestSupport",
            swiftSettings: strict
        ),

        // Shared by the service tests: the service started in the test process, its client, fixtures.
        .target(
            name: "ClonerServiceTestSupport",
            dependencies: ["ClonerService", "ClonerTestSupport", "ClonerConcurrency"],
            path: "Tests/ClonerServiceTestSupport",
            swiftSettings: strict
        ),

        .testTarget(name: "ClonerModelTests", dependencies: ["ClonerModel", "ClonerTestSupport"], swiftSettings: strict),
        .testTarget(name: "ClonerStoreTests", dependencies: ["ClonerStore", "ClonerModel", "ClonerTestSupport", "ClonerConcurrency"], swiftSettings: strict),
        // Shared by the clone and travel tests: a store on the sample model, on either backend.
        .target(
            name: "ClonerCloneTestSupport",
            dependencies: ["ClonerClone", "ClonerStore", "ClonerModel", "ClonerTestSupport"],
            path: "Tests/ClonerCloneTestSupport",
            swiftSettings: strict
        ),

        .testTarget(
            name: "ClonerCloneTests", dependencies: ["ClonerClone", "ClonerStore", "ClonerModel", "ClonerTestSupport", "ClonerCloneTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ClonerTravelTests",
            dependencies: ["ClonerTravel", "ClonerClone", "ClonerStore", "ClonerModel", "ClonerTestSupport", "ClonerCloneTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "ClonerHTTPTests", dependencies: ["ClonerHTTP", "ClonerConcurrency", "ClonerTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ClonerServiceTests",
            dependencies: [
                "ClonerService", "ClonerHTTP", "ClonerModel", "ClonerStore", "ClonerClone", "ClonerTestSupport", "ClonerServiceTestSupport",
                "ClonerConcurrency",
            ], swiftSettings: strict),
    ]
)
