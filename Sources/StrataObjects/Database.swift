import Foundation
import StrataStorage

/// An open object database file: the storage handle plus the schema this handle uses.
///
/// Opening with a schema writes it into a new file, adds classes that the file does not have
/// yet (additive change), builds or drops the indexes it adds or removes (no schema-version
/// bump needed), and otherwise requires the file's classes to match; a difference is
/// `SchemaError.migrationRequired` naming each difference. Opening without a schema (the
/// dynamic mode of the browser and the command line) uses the file's own schema.
public final class Database: @unchecked Sendable {
    /// The storage engine's handle of the file.
    public let store: Store
    /// The schema of the file (the wanted schema once opened with one), with the index flags of
    /// the file as the last transaction found them: which properties are indexed is a property
    /// of the file, which another process may change (see `confirmSchema`).
    public var schema: Schema { confirmedLock.withLock { confirmed.schema } }
    /// The schema version stored in the file.
    public private(set) var schemaVersion: UInt64
    /// What each class's table derives from `schema`, made once per index set (see `ClassLayout`).
    var layouts: SchemaLayout { confirmedLock.withLock { confirmed.layouts } }
    /// The classes of `schema` the file held when this handle opened it.
    private let classesInFile: Set<String>
    /// The schema (and its layouts) of the file's encoded schema as last found compatible (see
    /// `confirmSchema`; no bytes before the first transaction).
    private var confirmed: ConfirmedSchema
    private let confirmedLock = NSLock()

    /// A schema this handle reads and writes by, the layouts made from it and the encoding of
    /// the file's schema it was confirmed against.
    struct ConfirmedSchema {
        var bytes: [UInt8]?
        let schema: Schema
        let layouts: SchemaLayout
    }

    /// Opens (or creates) the file at `path`. With a schema: see `init(store:schema:schemaVersion:migrationBlock:)`.
    public convenience init(path: String, options: StoreOptions = StoreOptions(), schema: Schema? = nil, schemaVersion: UInt64 = 0) throws {
        try self.init(store: try Store(path: path, options: options), schema: schema, schemaVersion: schemaVersion, migrationBlock: nil)
    }

    /// Opens the file at `path` with `schema`, migrating it when `schemaVersion` is higher than
    /// the file's (see `Migration`).
    public convenience init(path: String, options: StoreOptions = StoreOptions(), schema: Schema, schemaVersion: UInt64,
                            migrationBlock: MigrationBlock?) throws {
        try self.init(store: try Store(path: path, options: options), schema: schema, schemaVersion: schemaVersion, migrationBlock: migrationBlock)
    }

    /// Uses an open store. With a schema: a new file gets it; classes the file lacks are added;
    /// a higher `schemaVersion` than the file's migrates it (see `Migration`; `migrationBlock`
    /// may adjust the data); the same version with a schema that differs only in indexes
    /// builds or drops those indexes; the same version with another difference is
    /// `SchemaError.migrationRequired` naming each difference; a lower version is
    /// `MigrationError.schemaVersionDecreased`. Without a schema the file's own is used.
    public init(store: Store, schema: Schema? = nil, schemaVersion: UInt64 = 0, migrationBlock: MigrationBlock? = nil) throws {
        self.store = store
        guard let wanted = schema else {
            let (fileSchema, fileVersion) = try Database.readSchema(store)
            let s = fileSchema ?? Schema([])
            self.schemaVersion = fileVersion
            self.confirmed = ConfirmedSchema(bytes: nil, schema: s, layouts: SchemaLayout(s))
            self.classesInFile = Set(s.classNames)
            return
        }
        try wanted.validate()
        let (version, stored) = try Database.prepare(store: store, wanted: wanted, version: schemaVersion, migrationBlock: migrationBlock)
        self.schemaVersion = version
        // The file's property order, not the wanted one: a class's columns are stored in the
        // order of the file's schema, and a model that declares the same properties in another
        // order is the same schema (as in RealmSwift) — it must not read one column as another.
        // The file's index flags too (a read-only handle does not apply the model's).
        let s = Database.inFileOrder(stored.map { Database.withIndexes(of: $0, wanted) } ?? wanted, file: stored)
        self.confirmed = ConfirmedSchema(bytes: nil, schema: s, layouts: SchemaLayout(s))
        self.classesInFile = Set(s.classNames.filter { stored?[$0] != nil })
    }

    /// `wanted` with the properties of each class the file holds in the file's order (the
    /// classes match but for that order once `prepare` has run — and, in a read-only file, for
    /// indexes, which the caller takes from the file; a class the file lacks, in a read-only
    /// file, keeps its own order). An index change keeps the file's order too.
    static func inFileOrder(_ wanted: Schema, file: Schema?) -> Schema {
        guard let file else { return wanted }
        return Schema(wanted.objectSchemas.map { w in
            guard let f = file[w.className] else { return w }
            let position = Dictionary(f.allProperties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
            var o = w
            o.allProperties = w.allProperties.enumerated()
                .sorted { (position[$0.element.name] ?? Int.max, $0.offset) < (position[$1.element.name] ?? Int.max, $1.offset) }
                .map(\.element)
            return o
        })
    }

    /// Checks, at the start of each transaction, that the file's schema still is the one this
    /// handle reads and writes by, and returns the schema (and layouts) the transaction uses:
    /// another process may have migrated the file since it opened (a class rewritten with other
    /// columns, a class deleted). Classes added by others are compatible. A changed class is
    /// `SchemaError.changedByAnotherProcess`, before anything is read or written with the old
    /// layout. Indexes added or removed by others are compatible too: which properties are
    /// indexed is a property of the file, so the handle adopts the file's index flags — a write
    /// then maintains the indexes the file has (none goes stale) and a query uses only those.
    /// One lookup and a byte comparison when nothing changed.
    private func confirmSchema(_ storage: Transaction) throws -> ConfirmedSchema {
        let current = confirmedLock.withLock { confirmed }
        guard let meta = try storage.tree("meta"), let bytes = try meta.getBytes(Array("schema".utf8)) else {
            if classesInFile.isEmpty { return current }
            throw SchemaError.changedByAnotherProcess(["the file's schema was removed"])
        }
        if current.bytes == bytes { return current }
        let file = try Schema.decode(bytes)
        let adopted = Database.withIndexes(of: file, current.schema)
        let diffs = Database.incompatibilities(handle: adopted, classesInFile: classesInFile, file: file)
        if !diffs.isEmpty { throw SchemaError.changedByAnotherProcess(diffs) }
        let next = ConfirmedSchema(bytes: bytes, schema: adopted, layouts: adopted == current.schema ? current.layouts : SchemaLayout(adopted))
        confirmedLock.withLock { confirmed = next }
        return next
    }

    /// How the file's schema `file` no longer fits a handle using `handle` (empty: it fits).
    static func incompatibilities(handle: Schema, classesInFile: Set<String>, file: Schema) -> [String] {
        var out: [String] = []
        for h in handle.objectSchemas {
            guard let f = file[h.className] else {
                if classesInFile.contains(h.className) { out.append("class '\(h.className)' was deleted") }
                continue
            }
            let diffs = differences(file: Schema([h]), wanted: Schema([f])) // from this handle's schema to the file's
            if !diffs.isEmpty { out += diffs }
            else if f.allProperties.map(\.name) != h.allProperties.map(\.name) { out.append("class '\(h.className)' was rewritten") }
        }
        return out
    }

    /// The schema and schema version stored in the file (nil for a new file).
    public static func readSchema(_ store: Store) throws -> (Schema?, UInt64) {
        let r = try store.beginRead(label: "schema")
        defer { r.end() }
        return try storedSchema(r)
    }

    /// The schema and schema version stored in the version `txn` reads.
    static func storedSchema(_ txn: Transaction) throws -> (Schema?, UInt64) {
        guard let meta = try txn.tree("meta") else { return (nil, 0) }
        var version: UInt64 = 0
        if let b = try meta.getBytes(Array("schemaVersion".utf8)), b.count == 8 { version = b.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
        guard let bytes = try meta.getBytes(Array("schema".utf8)) else { return (nil, version) }
        return (try Schema.decode(bytes), version)
    }

    /// Stores `s` and `version` as the schema of the version `w` writes (migrations, additive
    /// changes, classes added by an import).
    static func putSchema(_ s: Schema, version: UInt64, in w: WriteTransaction) throws {
        let meta = try w.tree("meta", create: true)!
        try meta.put(Array("schema".utf8), bytes: s.encode())
        try meta.put(Array("schemaVersion".utf8), bytes: withUnsafeBytes(of: version) { Array($0) })
    }

    /// Human-readable differences between the file's classes and the wanted ones (classes only
    /// in the file are not differences: a handle may open a subset).
    public static func differences(file: Schema, wanted: Schema) -> [String] {
        var out: [String] = []
        for w in wanted.objectSchemas {
            guard let f = file[w.className] else { continue }
            if f.isEmbedded != w.isEmbedded { out.append("class '\(w.className)' changed between embedded and top-level") }
            for p in w.allProperties where f[p.name] == nil { out.append("property '\(w.className).\(p.name)' was added") }
            for p in f.allProperties where w[p.name] == nil { out.append("property '\(w.className).\(p.name)' was removed") }
            for p in w.allProperties {
                guard let fp = f[p.name] else { continue }
                if fp.type != p.type || fp.collection != p.collection || fp.objectClassName != p.objectClassName || fp.linkOriginPropertyName != p.linkOriginPropertyName {
                    out.append("property '\(w.className).\(p.name)' changed type from \(fp.typeDescription) to \(p.typeDescription)")
                } else if fp.isOptional != p.isOptional {
                    out.append("property '\(w.className).\(p.name)' changed from \(fp.isOptional ? "optional" : "required") to \(p.isOptional ? "optional" : "required")")
                }
                if fp.isPrimaryKey != p.isPrimaryKey { out.append("primary key of '\(w.className)' changed") }
                else if fp.isIndexed != p.isIndexed { out.append("index on '\(w.className).\(p.name)' was \(p.isIndexed ? "added" : "removed")") }
            }
        }
        return out
    }

    /// A read transaction on the newest version.
    /// Each throws `SchemaError.changedByAnotherProcess` when another process changed the schema
    /// of a class this handle uses since it opened the file (see `confirmSchema`); indexes added
    /// or removed by another process are adopted instead.
    public func read(label: String = "") throws -> DBTransaction {
        try transaction(try store.beginRead(label: label))
    }

    /// The write transaction (waits for other writers).
    public func write(label: String = "") throws -> DBTransaction {
        try transaction(try store.beginWrite(label: label))
    }

    /// The write transaction, waiting for other writers until `cancellation` is cancelled
    /// (then `StorageError.writeLockWaitCancelled`); see `Store.beginWrite(label:cancellation:)`.
    public func write(label: String = "", cancellation: WriteLockWaitCancellation) throws -> DBTransaction {
        try transaction(try store.beginWrite(label: label, cancellation: cancellation))
    }

    /// A transaction over `storage` (a transaction of `store`) with this handle's schema, once
    /// the file's schema is confirmed to match it, with the file's index flags (else `storage`
    /// is ended and the error thrown). Every transaction of the handle begins here.
    func transaction(_ storage: Transaction) throws -> DBTransaction {
        let use: ConfirmedSchema
        do { use = try confirmSchema(storage) } catch {
            if let w = storage as? WriteTransaction { if w.isActive { w.abort() } } else { (storage as? ReadTransaction)?.end() }
            throw error
        }
        return DBTransaction(storage: storage, schema: use.schema, layouts: use.layouts)
    }

    /// The write transaction, with `classes` added to the file's schema in the same transaction:
    /// the new classes and whatever is written into them commit together, or (on `abort`, an
    /// error or a crash) not at all. The schema is read again under the writer lock; a class that
    /// exists by then is `SchemaError.invalid`. This handle's `schema` is not changed: reopen the
    /// file to use the classes after the commit.
    package func write(label: String = "", adding classes: [ObjectSchema]) throws -> DBTransaction {
        let w = try store.beginWrite(label: label)
        do {
            let (stored, version) = try Database.storedSchema(w)
            let fileSchema = stored ?? Schema([])
            for c in classes where fileSchema[c.className] != nil {
                throw SchemaError.invalid("class '\(c.className)' already exists (another process created it); run the command again")
            }
            let schema = Schema(fileSchema.objectSchemas + classes)
            try schema.validate()
            try Database.putSchema(schema, version: version, in: w)
            return DBTransaction(storage: w, schema: schema, layouts: SchemaLayout(schema))
        } catch {
            if w.isActive { w.abort() }
            throw error
        }
    }

    /// The write transaction if no other writer holds the write lock now; nil otherwise (no wait).
    public func tryWrite(label: String = "") throws -> DBTransaction? {
        try store.tryBeginWrite(label: label).map { try transaction($0) }
    }

    /// Closes the file: later transactions fail. Transactions still open keep their version readable until they end.
    public func close() { store.close() }
}
