import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An object of a Realm class: its key, the values of the class's properties (in
/// `RealmClass.properties` order) and its backlinks (in `RealmClass.backlinks` order, each a
/// `.list` of `.link`s to the origin objects).
package struct RealmObject: Sendable {
    package let key: Int64
    package let values: [RealmValue]
    package let backlinks: [RealmValue]
}

/// A `.realm` file written by realm-core (Realm Swift, Kotlin, JS, .NET), opened read-only.
///
/// Opening maps the file (`PROT_READ`), reads the header, the top array, and each table's spec
/// and column keys; cluster leaves are read on demand, so a file of millions of objects opens at
/// once and `object(at:in:)` finds any row by index. The file is never written and nothing is
/// created beside it (no `.lock`, no `.management`). Encrypted files are decrypted page by page
/// into memory as reads reach each page (HMAC-SHA-224 checked on every page; a wrong key fails at
/// open, a tampered page when it is first read or by `verifyEncryptedPages()`).
package final class RealmFile: @unchecked Sendable {
    package let path: String
    /// The files realm-core keeps beside a Realm file at `path` (its lock file, notification
    /// pipe, management directory, legacy sync logs): a tool writing an output file refuses
    /// these as it refuses the Realm file itself.
    package static func companionPaths(of path: String) -> [String] {
        [".lock", ".note", ".management", ".fresh.lock", ".log", ".log_a", ".log_b"].map { path + $0 }
    }
    /// The file format of the active header slot (20–24).
    package let formatVersion: Int
    /// True for files written by `writeCopy`/bundled realms: the top ref is in the streaming footer.
    package let isStreamingForm: Bool
    package let isEncrypted: Bool
    /// Offset of the top array in the (decrypted) file.
    package let topRef: Int
    /// Logical size of the (decrypted) file in bytes.
    package let fileSize: Int
    /// The classes (`class_` tables), in table order.
    package let classes: [RealmClass]
    /// Tables that are not classes (`metadata`, `pk`, tables without the `class_` prefix).
    package let otherTables: [RealmClass]
    /// The schema version in the `metadata` table (nil when there is no metadata table).
    package let schemaVersion: Int64?
    /// The commit (transaction) version in the top array, if the file records one.
    package let transactionVersion: Int64?
    /// The history type in the top array (0 none, 2 in-Realm, 3 sync client, 4 sync server).
    package let historyType: Int64?

    let bytes: RealmBytes
    let tables: [RealmTable]
    let tablesByName: [String: Int]
    let top: RealmNode
    let decoder: RealmLeafDecoder
    /// Header bytes and size on disk when the snapshot was taken (empty for in-memory images).
    private(set) var openedHeader: [UInt8] = []

    /// Opens `path` read-only. `encryptionKey` is the 64-byte key an SDK was given (nil for plain files).
    package static func open(path: String, encryptionKey: [UInt8]? = nil) throws -> RealmFile {
        // A live file (an app has it open) may get a new commit while we read: the header is read
        // again after opening, and a changed header means a retry on the new snapshot.
        var attempt = 0
        while true {
            let before = RealmFile.diskHeader(path)
            let file = try openOnce(path: path, encryptionKey: encryptionKey)
            let after = RealmFile.diskHeader(path)
            if before == after {
                file.openedHeader = after
                return file
            }
            attempt += 1
            if attempt >= 3 {
                throw RealmFileError.corrupt("the file got new commits while it was read, three times (an app is writing it); copy it and open the copy")
            }
        }
    }

    /// The first 24 bytes and the size of the file on disk (read with pread, not the mapping).
    static func diskHeader(_ path: String) -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 24)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 24, 0) }
        var st = stat()
        _ = fstat(fd, &st)
        withUnsafeBytes(of: Int64(st.st_size)) { buf += $0 }
        return n == 24 ? buf : []
    }

    /// True when the file on disk has a newer commit (or another size) than the snapshot being read:
    /// offer to reload.
    package func hasNewerCommit() -> Bool {
        guard !openedHeader.isEmpty else { return false }
        return RealmFile.diskHeader(path) != openedHeader
    }

    static func openOnce(path: String, encryptionKey: [UInt8]?) throws -> RealmFile {
        let mapped = try RealmBytes(mapping: path)
        if let key = encryptionKey {
            guard key.count == 64 else { throw RealmFileError.invalidEncryptionKey(length: key.count) }
            if mapped.count >= 24, try mapped.bytes(16, 4) == Array("T-DB".utf8) { throw RealmFileError.notEncrypted }
            let plain = try RealmDecryptor(key: key).open(mapped)
            return try RealmFile(path: path, bytes: plain, encrypted: true)
        }
        if mapped.count >= 24, try mapped.bytes(16, 4) != Array("T-DB".utf8) {
            throw RealmFileError.encryptionKeyRequired
        }
        return try RealmFile(path: path, bytes: mapped, encrypted: false)
    }

    /// Opens an in-memory image of a Realm file (tests, fuzzing, copies of live files).
    package static func open(image: [UInt8], path: String = "<memory>") throws -> RealmFile {
        try RealmFile(path: path, bytes: RealmBytes(copying: image), encrypted: false)
    }

    init(path: String, bytes: RealmBytes, encrypted: Bool) throws {
        self.path = path
        self.bytes = bytes
        self.isEncrypted = encrypted
        self.fileSize = bytes.count
        guard bytes.count >= 24 else {
            throw RealmFileError.notARealmFile(reason: "the file has \(bytes.count) bytes, less than a Realm header")
        }
        guard try bytes.bytes(16, 4) == Array("T-DB".utf8) else {
            throw RealmFileError.notARealmFile(reason: "no \"T-DB\" mnemonic at offset 16")
        }
        let flags = try bytes.u8(23)
        let slot = Int(flags & 1)
        let top0 = try bytes.le(0, 8)
        var topRef: UInt64
        var streaming = false
        if slot == 0 && top0 == UInt64.max {
            guard bytes.count >= 40 else { throw RealmFileError.corrupt("streaming file too short for its footer") }
            let cookie = try bytes.le(bytes.count - 8, 8)
            guard cookie == 0x3034_1252_37E5_26C8 else {
                throw RealmFileError.corrupt("streaming footer magic cookie is missing (truncated file?)")
            }
            topRef = try bytes.le(bytes.count - 16, 8)
            streaming = true
        } else {
            topRef = try bytes.le(slot * 8, 8)
        }
        isStreamingForm = streaming
        let format = Int(try bytes.u8(20 + slot))
        formatVersion = format
        guard (20...24).contains(format) else {
            if format == 0 && topRef == 0 { throw RealmFileError.corrupt("the file is empty (no commit yet)") }
            throw RealmFileError.unsupportedFormat(format)
        }
        guard topRef > 0, topRef & 7 == 0, topRef < UInt64(bytes.count) else {
            throw RealmFileError.corrupt("top ref \(topRef) is not an aligned offset inside the file (\(bytes.count) bytes)")
        }
        self.topRef = Int(topRef)
        let top = try RealmNode(bytes, ref: Int(topRef))
        guard top.hasRefs, top.count >= 3 else { throw RealmFileError.corrupt("the top array at \(topRef) is malformed") }
        self.top = top
        transactionVersion = top.count > 6 ? (try top.int(6)) >> 1 : nil
        historyType = top.count > 7 ? (try top.int(7)) >> 1 : nil

        guard let namesNode = try top.child(0), let tablesNode = try top.child(1) else {
            throw RealmFileError.corrupt("the top array lacks table names or tables")
        }
        // Counts first: a damaged count (up to 2^24 with no bytes behind it) must not be decoded.
        let nameCount = try RealmStrings.count(namesNode)
        guard nameCount == tablesNode.count else {
            throw RealmFileError.corrupt("\(nameCount) table names but \(tablesNode.count) tables (top array at \(topRef))")
        }
        guard tablesNode.count <= max(bytes.count / 8, 1 << 10) else {
            throw RealmFileError.corrupt("the table list at \(tablesNode.ref) claims \(tablesNode.count) tables, more than a file of \(bytes.count) bytes can hold")
        }
        let names = try RealmStrings.shortArray(namesNode)
        // First pass: table keys, so link columns can name their targets.
        var keyToIndex: [Int64: Int] = [:]
        var rawKeys: [Int64] = []
        var refs: [Int?] = []
        for i in 0..<tablesNode.count {
            let r = try tablesNode.ref(i)
            refs.append(r)
            var k = Int64(i)
            if let r {
                let t = try RealmNode(bytes, ref: r)
                if t.hasRefs, t.count > 3 { k = (try t.int(3)) >> 1 }
            }
            rawKeys.append(k)
            if r != nil { keyToIndex[k] = i }
        }
        var tables: [RealmTable] = []
        var byName: [String: Int] = [:]
        var groupToTable: [Int: Int] = [:]
        for i in 0..<tablesNode.count {
            guard let r = refs[i] else { continue }
            let name = names[i] ?? ""
            let t = try RealmTable(index: i, name: name, topRef: r, bytes: bytes,
                                   tableKeyToIndex: { keyToIndex[$0] }, rawKey: rawKeys[i])
            groupToTable[i] = tables.count
            byName[name] = tables.count
            tables.append(t)
        }
        self.tables = tables
        self.tablesByName = byName
        func displayName(_ t: RealmTable) -> String {
            t.name.hasPrefix("class_") ? String(t.name.dropFirst(6)) : t.name
        }
        let names2 = tables.map(displayName)
        let keyToName: [Int64: String] = Dictionary(tables.map { ($0.key, displayName($0)) }, uniquingKeysWith: { a, _ in a })
        let groupToName: [Int: String] = Dictionary(uniqueKeysWithValues: groupToTable.map { ($0.key, names2[$0.value]) })
        decoder = RealmLeafDecoder(bytes: bytes, format: format, className: { keyToName[$0] }, tableName: { groupToName[$0] })

        var classes: [RealmClass] = []
        var others: [RealmClass] = []
        for t in tables {
            let cls = RealmFile.describe(t, displayName: displayName(t), groupToName: groupToName, allTables: tables)
            if t.name.hasPrefix("class_") { classes.append(cls) } else { others.append(cls) }
        }
        self.classes = classes
        self.otherTables = others

        // Schema version: the `metadata` table's `version` column, first row.
        var sv: Int64? = nil
        if let mi = byName["metadata"] {
            let t = tables[mi]
            if t.objectCount > 0, let col = t.columns.first(where: { $0.name == "version" }) {
                let (leaf, local) = try t.locate(bytes, row: 0)
                let v = try decoder.value(table: t, column: col, leafRef: leaf.ref, local: local)
                if case let .int(x) = v { sv = x }
            }
        }
        schemaVersion = sv
    }

    static func describe(_ t: RealmTable, displayName: String, groupToName: [Int: String], allTables: [RealmTable]) -> RealmClass {
        var props: [RealmProperty] = []
        var backs: [RealmProperty] = []
        var pkName: String? = nil
        for c in t.columns {
            let isPK = t.hasPrimaryKeySlot && c.key.raw == t.primaryKeyColumn
            if isPK { pkName = c.name }
            let target = c.targetTable.flatMap { groupToName[$0] }
            if c.type == .backlink {
                var origin: String? = nil
                if let ti = c.targetTable, let ot = allTables.first(where: { $0.index == ti }) {
                    origin = ot.columns.first(where: { $0.key.raw == c.oppositeColumnKey })?.name
                }
                backs.append(RealmProperty(name: "\(target ?? "?").\(origin ?? "?")", type: .linkingObjects, isNullable: false,
                                           collection: .list, targetClass: target, originProperty: origin,
                                           isIndexed: false, isPrimaryKey: false, columnKey: c.key.raw))
                continue
            }
            props.append(RealmProperty(
                name: c.name, type: c.type.propertyType,
                isNullable: c.key.isNullable || c.type == .mixed,
                collection: c.type == .linkList ? .list : c.key.collection,
                targetClass: target, originProperty: nil,
                isIndexed: c.key.isIndexed || t.searchIndexed.contains(c.leafIndex),
                isPrimaryKey: isPK, columnKey: c.key.raw))
        }
        return RealmClass(name: displayName, tableName: t.name, tableKey: t.key, primaryKey: pkName,
                          isEmbedded: t.isEmbedded, isAsymmetric: t.isAsymmetric, objectCount: t.objectCount,
                          properties: props, backlinks: backs)
    }

    // MARK: lookup

    func table(_ className: String) throws -> RealmTable {
        if let i = tablesByName["class_" + className] ?? tablesByName[className] { return tables[i] }
        throw RealmFileError.noSuchClass(className)
    }

    /// Decrypts and authenticates every page of an encrypted file (pages are otherwise checked
    /// when first read); does nothing for plain files.
    package func verifyEncryptedPages() throws {
        try bytes.pager?.verifyAll()
    }

    /// The class or internal table named `name` (class name without `class_`, or a table name).
    package func realmClass(named name: String) -> RealmClass? {
        classes.first { $0.name == name } ?? otherTables.first { $0.name == name }
    }

    /// Number of objects in `className`.
    package func objectCount(in className: String) throws -> Int {
        try table(className).objectCount
    }

    /// The object at `index` (0..<objectCount, in key order) of `className`; reads one leaf.
    package func object(at index: Int, in className: String) throws -> RealmObject {
        let t = try table(className)
        let (leaf, local) = try t.locate(bytes, row: index)
        return try object(t, leaf: leaf, local: local)
    }

    /// The object with key `key` in `className`, or nil if there is none.
    package func object(withKey key: Int64, in className: String) throws -> RealmObject? {
        let t = try table(className)
        guard let row = try t.row(bytes, forKey: key) else { return nil }
        let (leaf, local) = try t.locate(bytes, row: row)
        return try object(t, leaf: leaf, local: local)
    }

    /// The index (0..<objectCount) of the object with key `key`, or nil.
    package func index(ofKey key: Int64, in className: String) throws -> Int? {
        try table(className).row(bytes, forKey: key)
    }

    /// One property value of the object at `index` (reads only that column's leaf).
    package func value(at index: Int, property: String, in className: String) throws -> RealmValue {
        let t = try table(className)
        guard let c = t.columns.first(where: { $0.name == property && $0.type != .backlink }) else {
            throw RealmFileError.noSuchClass("\(className).\(property)")
        }
        let (leaf, local) = try t.locate(bytes, row: index)
        return try decoder.value(table: t, column: c, leafRef: leaf.ref, local: local)
    }

    private func object(_ t: RealmTable, leaf: RealmTable.Leaf, local: Int) throws -> RealmObject {
        let key = try t.objectKey(bytes, leaf: leaf, local: local)
        var values: [RealmValue] = []
        var backs: [RealmValue] = []
        for c in t.columns {
            let v = try decoder.value(table: t, column: c, leafRef: leaf.ref, local: local)
            if c.type == .backlink { backs.append(v) } else { values.append(v) }
        }
        return RealmObject(key: key, values: values, backlinks: backs)
    }
}

extension RealmLeafDecoder {
    /// The value of `column` for object `local` of the cluster leaf at `leafRef`.
    func value(table: RealmTable, column c: RealmColumn, leafRef: Int, local: Int) throws -> RealmValue {
        let budget = RealmWorkBudget()
        let leaf = try RealmNode(bytes, ref: leafRef)
        let slot = c.leafIndex &+ 1
        guard slot < leaf.count else { throw RealmFileError.corrupt("cluster leaf \(leafRef) of \"\(table.name)\" lacks column \(c.name)") }
        let target = c.targetTable.flatMap { tableName($0) }
        guard let colRef = try leaf.ref(slot) else {
            throw RealmFileError.corrupt("cluster leaf \(leafRef) of \"\(table.name)\" has no leaf for column \(c.name)")
        }
        let colLeaf = try RealmNode(bytes, ref: colRef)
        var e = Element(type: c.type, nullable: c.key.isNullable, enumKeys: c.enumKeysRef, linkTarget: target)
        if c.type == .linkList { e.type = .link }
        if c.key.collection != nil || c.type == .linkList {
            guard let r = try colLeaf.ref(local) else {
                if c.key.isDictionary { return .dictionary([]) }
                return c.key.isSet ? .set([]) : .list([])
            }
            if c.key.isDictionary {
                var ve = e
                ve.type = .mixed
                ve.nullable = true
                return .dictionary(try dictionaryEntries(r, keyType: c.dictionaryKeyType, valueElement: ve, budget: budget))
            }
            if e.type == .link { e.linkPlusOne = false }
            let items = try listElements(r, e, budget: budget)
            return c.key.isSet ? .set(items) : .list(items)
        }
        guard local < (try count(colLeaf, e)) else {
            throw RealmFileError.corrupt("column \(c.name) leaf at \(colRef) is shorter than its cluster")
        }
        return try element(colLeaf, local, e, budget: budget)
    }
}
