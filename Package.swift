// swift-tools-version:6.0
// Strata: a pure-Swift embedded object database in the style of Realm, and `strata`,
// a terminal browser for its files.
//
// Layers (lower never imports higher):
//   CStrataSupport  - tiny C shim: atomics and futex on shared memory (lock file), memfd
//   StrataDecimal   - IEEE 754-2008 decimal128: parsing, realm-core's printing, BID128,
//                     numeric order, round-half-even arithmetic (no dependencies)
//   StrataStorage   - file, mmap, blocks, copy-on-write B+trees, meta slots, versioned free
//                     list, lock file with reader slots, commit, integrity check
//   StrataObjects   - schema, columnar clusters, links, collections, indexes, the
//                     RealmSwift-style API and the dynamic API, notifications, compaction
//   StrataQuery     - Realm Query Language parser and evaluator, typed `where {}`
//   Strata          - the umbrella module users import (re-exports objects + query)
//   StrataTooling   - shared by the browser and `strata`: the data source protocol the screens
//                     read (`BrowserDataSource`) and its value types, the data source over the
//                     engine, reports, value <-> text, the demo database, formatting
//   StrataBrowser   - the UI: screens drawn into a cell buffer, key handling, layout, ncurses
//   CNcurses        - ncurses shim; the backend only blits the cell buffer
//   StrataBench     - the benchmark against SQLite (CSQLite)
//   strata          - the executable: browse (default) and the subcommands
import PackageDescription

let package = Package(
    name: "Strata",
    // Linux only: the lock file uses futex on shared memory and compaction uses memfd
    // (CStrataSupport). macOS would need os_unfair_lock/ulock and a file-backed memfd substitute.
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
        // IEEE 754-2008 decimal128 (parsing, realm-core's printing, BID128, arithmetic): the one
        // implementation under Strata's `Decimal128` and the Realm reader's decimals.
        .target(name: "StrataDecimal"),
        .target(name: "StrataObjects", dependencies: ["StrataStorage", "StrataDecimal"]),
        // Read-only reader of realm-core `.realm` files (formats 20-24); below StrataObjects.
        .target(
            name: "StrataRealm",
            dependencies: [
                "StrataDecimal",
                "StrataStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "StrataQuery", dependencies: ["StrataObjects", "StrataStorage", "StrataDecimal"]),
        .target(name: "Strata", dependencies: ["StrataObjects", "StrataQuery", "StrataStorage"]),
        .target(
            name: "CNcurses",
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        .target(name: "StrataTooling", dependencies: ["StrataStorage", "StrataObjects", "StrataQuery", "StrataRealm"], plugins: ["EmbedResources"]),
        // Resources/ (key map, themes; demo names for StrataTooling) is embedded at build time by the
        // EmbedResources plugin (Plugins/EmbedResources), so `strata` needs no files at run time.
        .target(name: "StrataBrowser", dependencies: ["StrataTooling", "CNcurses"], plugins: ["EmbedResources"]),
        .executableTarget(name: "ResourceEmbedder"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["ResourceEmbedder"]),
        .systemLibrary(name: "CSQLite"),
        .target(name: "StrataBench", dependencies: ["StrataStorage", "StrataObjects", "StrataQuery", "CSQLite"],
                // The realm-core reference is C++ built against a realm-core tree by its build.sh.
                exclude: ["RealmCoreReference"]),
        .executableTarget(
            name: "strata",
            dependencies: [
                "Strata", "StrataStorage", "StrataTooling", "StrataBrowser", "StrataBench", "StrataRealm", "StrataDecimal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A tiny writer used by the crash tests: commits in a loop and acknowledges each commit.
        .executableTarget(name: "StrataTestWriter", dependencies: ["StrataStorage"]),
        .testTarget(
            name: "StrataStorageTests",
            dependencies: ["StrataStorage", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        // DecimalVectors.swift is generated by make_vectors.py (Python's decimal module as oracle).
        .testTarget(name: "StrataDecimalTests", dependencies: ["StrataDecimal"], exclude: ["make_vectors.py"]),
        .testTarget(name: "StrataObjectsTests", dependencies: ["StrataStorage", "StrataObjects"]),
        .testTarget(name: "StrataQueryTests", dependencies: ["Strata", "StrataStorage", "StrataObjects", "StrataQuery"]),
        // RealmSwift-style tests of the compatibility API (issue 15).
        .testTarget(name: "StrataCompatTests", dependencies: ["Strata", "StrataStorage"]),
        .testTarget(
            name: "StrataBrowserTests",
            dependencies: ["StrataBrowser", "StrataTooling", "Strata", "StrataStorage", "StrataObjects", "StrataQuery"],
            exclude: ["Golden"]
        ),
        .testTarget(name: "StrataCLITests", dependencies: ["Strata", "StrataStorage", "StrataBench", "StrataTooling", "strata"],
                    exclude: ["Scripts"]),
        .testTarget(name: "StrataRealmTests", dependencies: ["StrataRealm"], exclude: ["Fixtures"]),
    ]
)
