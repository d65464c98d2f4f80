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
        for i in 0..<types.count {
            // Cheap exact-type check first; full coercion (and collections) only when needed.
            switch (types[i], row[i]) {
            case (.int, .int), (.double, .double), (.bool, .bool), (.date, .date), (.objectId, .objectId), (.uuid, .uuid), (.float, .float): continue
            case (.string, .string(let s)) where s.utf8.count <= ObjectLimits.maxValueBytes: continue
            default:
                let p = t.columns[i]
                row[i] = p.collection != .single ? .null : try coerce(className, p.name, row[i])
            }
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
