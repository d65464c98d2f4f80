import Foundation
import StrataStorage

extension DBTransaction {
    /// The stored properties of a class in column order (the order `insertRow` takes values in).
    public func columnOrder(_ className: String) throws -> [String] { try table(className).columns.map(\.name) }

    /// Inserts an object from values in column order (see `columnOrder`): the fast path for
    /// bulk loading, like binding a prepared INSERT. Collections take `.null` here and are set
    /// with `setList`/`setMap`. Throws on a duplicate primary key.
    @discardableResult
    public func insertRow(_ className: String, _ values: [Value]) throws -> ObjKey {
        guard isWritable else { throw ObjectError.notInWriteTransaction }
        let t = try table(className)
        if t.schema.isEmbedded { throw ObjectError.embeddedObjectCreation(className) }
        guard values.count == t.columns.count else {
            throw ObjectError.wrongType("a row of '\(className)'", expected: "\(t.columns.count) values", got: "\(values.count)")
        }
        var row = values
        let types = t.columnTypes
        for i in 0..<types.count where !Self.isExact(types[i], row[i]) {
            // Full coercion (and collections) only when the cheap exact-type check fails.
            let p = t.columns[i]
            row[i] = p.collection != .single ? .null : try coerce(className, p.name, row[i])
        }
        var pkValue: Value? = nil
        if let pkc = t.pkColumn {
            pkValue = row[pkc]
            let appending: Bool = { if t.usesPrimaryKeyAsObjectKey, case .int(let k) = row[pkc] { return t.isBeyondLastKey(k) }; return false }()
            if !appending, try find(className, primaryKey: row[pkc]) != nil {
                throw ObjectError.duplicatePrimaryKey(className: className, value: row[pkc].description)
            }
        }
        let key = try t.newKey(primaryKey: pkValue)
        try t.insert(key: key, values: row)
        for i in t.indexedColumns {
            try (storage as! WriteTransaction).tree(Self.indexTreeName(className, t.columns[i].name), create: true)!.put(IndexKey.key(row[i], key), bytes: [])
        }
        t.changeCounts.inserted += 1
        return key
    }
}

extension DBTransaction {
    /// True when `v` is stored in a column of `type` as it is (no coercion, within the limits).
    @inline(__always)
    static func isExact(_ type: PropertyType, _ v: Value) -> Bool {
        switch (type, v) {
        case (.int, .int), (.double, .double), (.bool, .bool), (.date, .date), (.objectId, .objectId), (.uuid, .uuid), (.float, .float): return true
        case (.string, .string(let s)): return s.utf8.count <= ObjectLimits.maxValueBytes
        default: return false
        }
    }

    /// The table of a class whose new objects can be appended cluster by cluster (no secondary
    /// index, no collection, an Int primary key that is the object key or no primary key), or nil.
    func appendableTable(_ className: String) throws -> ClassTable? {
        let t = try table(className)
        if t.schema.isEmbedded || !t.indexedColumns.isEmpty || t.columns.contains(where: { $0.collection != .single }) { return nil }
        if t.pkColumn != nil && !t.usesPrimaryKeyAsObjectKey { return nil }
        return t
    }

    /// Appends objects given column by column (every column, each value of its column's exact
    /// type — `isExact` — or null in an optional column) whose keys increase and lie above every
    /// key of the class: the cluster fill of `appendObjects`. The caller checked all of it.
    func appendCheckedRows(_ t: ClassTable, keys: [ObjKey], columns: [Int: BulkColumn]) throws {
        guard !keys.isEmpty else { return }
        for (c, col) in columns where col.count != keys.count {
            throw ObjectError.wrongType("'\(t.schema.className).\(t.columns[c].name)'", expected: "\(keys.count) values", got: "\(col.count)")
        }
        try t.appendBulk(keys: keys, columns: columns)
        t.changeCounts.inserted += keys.count
    }
}

/// Values of one property for many objects, for `appendObjects`.
public enum BulkColumn {
    /// Int values (any integer width; stored as 64-bit).
    case ints([Int64])
    /// Double values.
    case doubles([Double])
    /// Bool values.
    case bools([Bool])
    /// String values.
    case strings([String])
    /// Any property type, one `Value` per object (slower than the typed cases).
    case values([Value])

    var count: Int {
        switch self {
        case .ints(let a): return a.count
        case .doubles(let a): return a.count
        case .bools(let a): return a.count
        case .strings(let a): return a.count
        case .values(let a): return a.count
        }
    }
}

extension DBTransaction {
    /// Appends `count` objects given column by column — the fast path for bulk loading (import,
    /// benchmarks). Properties not given take their defaults. When the objects' keys (the Int
    /// primary keys, or new keys) are increasing and above every existing key, clusters are
    /// filled directly from the arrays; otherwise the objects are inserted one by one. Either way
    /// the same checks apply: types, the 16 MB value limit, primary-key uniqueness.
    public func appendObjects(_ className: String, count: Int, columns given: [String: BulkColumn]) throws {
        guard isWritable else { throw ObjectError.notInWriteTransaction }
        let t = try table(className)
        if t.schema.isEmbedded { throw ObjectError.embeddedObjectCreation(className) }
        for (name, col) in given {
            guard let ci = t.columnByName[name] else { throw ObjectError.unknownProperty(className: className, property: name) }
            guard col.count == count else { throw ObjectError.wrongType("'\(className).\(name)'", expected: "\(count) values", got: "\(col.count)") }
            let p = t.columns[ci]
            switch (p.type, col) {
            case (.int, .ints), (.double, .doubles), (.bool, .bools): break
            case (.string, .strings(let a)):
                if let big = a.first(where: { $0.utf8.count > ObjectLimits.maxValueBytes }) { throw ObjectError.valueTooLarge("'\(className).\(name)'", big.utf8.count) }
            case (_, .values): break
            default: throw ObjectError.wrongType("'\(className).\(name)'", expected: p.type.description, got: "a bulk column of another type")
            }
        }
        // Keys.
        var keys: [ObjKey] = []
        keys.reserveCapacity(count)
        if let pkc = t.pkColumn {
            guard let pkCol = given[t.columns[pkc].name] else { throw ObjectError.missingPrimaryKey(className: className) }
            if t.usesPrimaryKeyAsObjectKey, case .ints(let a) = pkCol { keys = a }
        }
        let canAppend: Bool = {
            if t.pkColumn != nil && !t.usesPrimaryKeyAsObjectKey { return false }
            if !t.indexedColumns.isEmpty { return false }
            if t.columns.contains(where: { $0.collection != .single }) { return false }
            if t.pkColumn != nil {
                guard keys.count == count else { return false }
                for i in 1..<max(1, count) where keys[i] <= keys[i - 1] { return false }
            }
            return true
        }()
        if !canAppend || (t.pkColumn != nil && count > 0 && (try? t.isBeyondAll(keys[0])) != true) {
            for i in 0..<count {
                var row: [Value] = []
                row.reserveCapacity(t.columns.count)
                for p in t.columns {
                    guard let col = given[p.name] else { row.append(t.defaultValue(p)); continue }
                    switch col {
                    case .ints(let a): row.append(.int(a[i]))
                    case .doubles(let a): row.append(.double(a[i]))
                    case .bools(let a): row.append(.bool(a[i]))
                    case .strings(let a): row.append(.string(a[i]))
                    case .values(let a): row.append(a[i])
                    }
                }
                try insertRow(className, row)
            }
            return
        }
        if t.pkColumn == nil { keys = try (0..<count).map { _ in try t.newKey(primaryKey: nil) } }
        // Coerce `.values` columns once.
        var prepared: [Int: BulkColumn] = [:]
        for (name, col) in given {
            let ci = t.columnByName[name]!
            if case .values(let a) = col { prepared[ci] = .values(try a.map { try coerce(className, name, $0) }) } else { prepared[ci] = col }
        }
        try t.appendBulk(keys: keys, columns: prepared)
        t.changeCounts.inserted += count
    }
}
