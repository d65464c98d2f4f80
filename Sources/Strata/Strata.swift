// The module Strata users import: the object database and its query language.
@_exported import StrataObjects
@_exported import StrataQuery
import StrataStorage

// Storage types that appear in the public API of `Realm` and `Database`, named here so an app
// that imports only Strata can spell them. The rest of the storage layer stays behind its own
// product, `StrataStorage`.

/// What a compaction did: the file's size before and after, and how long it took.
/// Returned by `Realm.compact()` and in `Realm.launchCompaction`.
public typealias CompactionResult = StrataStorage.CompactionResult
/// The outcome of `Realm.checkIntegrity()`: every problem found in the file's structure.
public typealias IntegrityReport = StrataStorage.IntegrityReport
/// The storage engine's handle of one open file, under a `Database`.
public typealias Store = StrataStorage.Store
/// How a `Store` is opened: read-only, encryption key, write-lock wait and sync options.
public typealias StoreOptions = StrataStorage.StoreOptions
