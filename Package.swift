// swift-tools-version:6.0
// Strata: a pure-Swift embedded object database in the style of Realm, and `strata`,
// a terminal browser for its files.
//
// Layers (lower never imports higher):
//   CStrataSupport  - tiny C shim: atomics and futex on shared memory (lock file), memfd
//   StrataStorage   - file, mmap, blocks, copy-on-write B+trees, meta slots, versioned free
//                     list, lock file with reader slots, commit, integrity check
//   StrataObjects   - schema, columnar clusters, links, collections, indexes, the
//                     RealmSwift-style API and the dynamic API, notifications, compaction
//   StrataQuery     - Realm Query Language parser and evaluator, typed `where {}`
//   Strata          - the umbrella module users import (re-exports objects + query)
//   StrataBrowser   - screens drawn into a cell buffer, key handling, models
//   CNcurses        - ncurses shim; the backend only blits the cell buffer
//   StrataBench     - the benchmark against SQLite (CSQLite)
//   strata          - the executable: browse (default) and the subcommands
import PackageDescription

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataStorage", targets: ["StrataStorage"]),
        .executable(name: "strata", targets: ["strata"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .target(name: "CStrataSupport"),
        .target(
            name: "StrataStorage",
            dependencies: [
                "CStrataSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "StrataObjects", dependencies: ["StrataStorage"]),
        // Read-only reader of realm-core `.realm` files (formats 20-24); below StrataObjects.
        .target(
            name: "StrataRealm",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "StrataQuery", dependencies: ["StrataObjects"]),
        .target(name: "Strata", dependencies: ["StrataObjects", "StrataQuery"]),
        .target(
            name: "CNcurses",
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        .target(name: "StrataBrowser", dependencies: ["Strata", "CNcurses"]),
        .systemLibrary(name: "CSQLite"),
        .target(name: "StrataBench", dependencies: ["Strata", "StrataStorage", "CSQLite"]),
        .executableTarget(
            name: "strata",
            dependencies: [
                "Strata", "StrataStorage", "StrataBrowser", "StrataBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A tiny writer used by the crash tests: commits in a loop and acknowledges each commit.
        .executableTarget(name: "StrataTestWriter", dependencies: ["StrataStorage"]),
        .testTarget(
            name: "StrataStorageTests",
            dependencies: ["StrataStorage", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        .testTarget(name: "StrataObjectsTests", dependencies: ["Strata"]),
        .testTarget(name: "StrataQueryTests", dependencies: ["Strata"]),
        // RealmSwift-style tests of the compatibility API (issue 15).
        .testTarget(name: "StrataCompatTests", dependencies: ["Strata"]),
        .testTarget(name: "StrataBrowserTests", dependencies: ["StrataBrowser"], exclude: ["Golden"]),
        .testTarget(name: "StrataCLITests", dependencies: ["Strata", "StrataStorage", "StrataBench", "strata"]),
        .testTarget(name: "StrataRealmTests", dependencies: ["StrataRealm"], exclude: ["Fixtures"]),
    ]
)
