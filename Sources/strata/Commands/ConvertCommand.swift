import ArgumentParser
import Foundation
import Strata
import StrataRealm
import StrataDecimal
import StrataStorage
import StrataTooling

/// `strata convert app.realm out.strata`: the schema and objects of a Realm file (links, lists,
/// sets, maps, embedded objects, primary keys) written into a new Strata file in one write
/// transaction. The Realm file is only read; the destination must not exist.
struct Convert: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a Realm file (.realm) into a new Strata file, to edit, compact and watch it.")

    @Argument(help: "The Realm file to read.") var source: String
    @Argument(help: "The new Strata file (must not exist).") var destination: String
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        if FileManager.default.fileExists(atPath: destination) {
            throw CLIError("\(destination) already exists; convert never overwrites a file: choose another path or delete it", code: ExitCode32.refused)
        }
        let realm = try RealmFileCommands.open(source, common: common)
        let converter = RealmConverter(realm: realm)
        let schema = try converter.schema()
        let bar = ProgressBar()
        do {
            let db = try Database(path: destination, schema: schema)
            defer { db.close() }
            try converter.copyObjects(into: db) { bar.update($0, "converting") }
            bar.finish()
        } catch {
            bar.finish()
            // A failed conversion leaves nothing behind (the destination did not exist before).
            for path in [destination, destination + ".lock"] { try? FileManager.default.removeItem(atPath: path) }
            if let e = error as? CLIError { throw e }
            if let e = error as? RealmFileError { throw CLIError("\(source): \(e.description)", code: ExitCode32.badFile) }
            throw cliError(error)
        }
        let total = realm.classes.filter { !$0.isEmbedded }.reduce(0) { $0 + $1.objectCount }
        if !converter.skipped.isEmpty {
            out.note("strata: \(converter.skipped.count) value\(converter.skipped.count == 1 ? "" : "s") cannot be stored in a Strata file yet and were left out:")
            for line in converter.skipped.prefix(10) { out.note("  - \(line)") }
            if converter.skipped.count > 10 { out.note("  … and \(converter.skipped.count - 10) more") }
        }
        try out.line("converted \(source) (Realm format \(realm.formatVersion), \(realm.classes.count) classes, \(Formatting.number(total)) objects) to \(destination)")
        return 0
    }
}

/// Maps a Realm file's schema and objects to Strata's. Objects get new keys; links are remapped
/// (all top-level objects are created first, then links, collections and embedded objects set).
/// Values a Strata file cannot hold yet (maps of embedded objects, collections nested inside an
/// AnyRealmValue) are left out and listed in ``skipped``.
final class RealmConverter {
    let realm: RealmFile
    /// "Class.property of #key: why" for every value left out.
    private(set) var skipped: [String] = []

    init(realm: RealmFile) { self.realm = realm }

    func schema() throws -> Schema {
        Schema(try realm.classes.map { c in
            ObjectSchema(className: c.name, properties: try c.properties.map(property) + c.backlinks.compactMap { b in
                // Strata backlinks come from link properties only (not from AnyRealmValue ones).
                guard let origin = b.targetClass, let property = b.originProperty,
                      realm.realmClass(named: origin)?.properties.first(where: { $0.name == property })?.type == .link else { return nil }
                return PropertySchema(name: "\(origin.prefix(1).lowercased())\(origin.dropFirst())_\(property)", type: .linkingObjects,
                                      objectClassName: origin, linkOriginPropertyName: property)
            }, isEmbedded: c.isEmbedded)
        })
    }

    func property(_ p: RealmProperty) throws -> PropertySchema {
        let type: PropertyType
        switch p.type {
        case .int: type = .int
        case .bool: type = .bool
        case .string: type = .string
        case .binary: type = .data
        case .mixed: type = .mixed
        case .timestamp: type = .date
        case .float: type = .float
        case .double: type = .double
        case .decimal128: type = .decimal128
        case .link: type = .object
        case .objectId: type = .objectId
        case .uuid: type = .uuid
        case .typedLink, .linkingObjects:
            throw CLIError("\(p.name): typed links are not supported by Strata files yet", code: ExitCode32.badInput)
        }
        let collection: CollectionKind
        switch p.collection {
        case nil: collection = .single
        case .list?: collection = .list
        case .set?: collection = .set
        case .dictionary?: collection = .map
        }
        let optional = type == .object ? (collection == .single || collection == .map) : (p.isNullable && type != .mixed)
        return PropertySchema(name: p.name, type: type, collection: collection, isOptional: optional,
                              objectClassName: type == .object ? p.targetClass : nil,
                              isPrimaryKey: p.isPrimaryKey, isIndexed: p.isIndexed)
    }

    func isEmbedded(_ className: String?) -> Bool {
        className.flatMap { realm.realmClass(named: $0)?.isEmbedded } ?? false
    }

    /// Properties set at creation: single values that are not links.
    func isPlain(_ p: RealmProperty) -> Bool { p.collection == nil && p.type != .link && p.type != .mixed }

    func copyObjects(into db: Database, progress: (Double) -> Void) throws {
        let top = realm.classes.filter { !$0.isEmbedded }
        let total = Double(max(1, top.reduce(0) { $0 + $1.objectCount } * 2))
        var done = 0
        var keys: [String: [Int64: ObjKey]] = [:]
        let w = try db.write(label: "strata convert")
        do {
            for c in top {
                var map: [Int64: ObjKey] = [:]
                for i in 0..<c.objectCount {
                    let o = try realm.object(at: i, in: c.name)
                    var values: [String: Value] = [:]
                    for (p, v) in zip(c.properties, o.values) where isPlain(p) {
                        values[p.name] = try storable("\(c.name).\(p.name) of #\(o.key)") { try value(v, keys: [:]) }
                    }
                    map[o.key] = try w.create(c.name, values: values)
                    done += 1
                    if done % 1024 == 0 { progress(Double(done) / total) }
                }
                keys[c.name] = map
            }
            for c in top {
                for i in 0..<c.objectCount {
                    let o = try realm.object(at: i, in: c.name)
                    guard let key = keys[c.name]?[o.key] else { continue }
                    try fill(w, c, o, key: key, keys: keys, plainToo: false)
                    done += 1
                    if done % 1024 == 0 { progress(Double(done) / total) }
                }
            }
            try w.commit()
        } catch {
            w.abort()
            throw error
        }
        progress(1)
    }

    /// Sets the links, collections, Mixed values and embedded objects of one object (and, for
    /// embedded objects, the plain values too).
    func fill(_ w: DBTransaction, _ c: RealmClass, _ o: RealmObject, key: ObjKey, keys: [String: [Int64: ObjKey]], plainToo: Bool) throws {
        for (p, v) in zip(c.properties, o.values) {
            if isPlain(p) {
                if plainToo, let x = try storable("\(c.name).\(p.name) of #\(o.key)", { try value(v, keys: keys) }) { try w.set(c.name, key, p.name, x) }
                continue
            }
            if p.collection == nil, p.type == .link, isEmbedded(p.targetClass) {
                guard case let .link(cls, k) = v, let ec = realm.realmClass(named: cls), let eo = try realm.object(withKey: k, in: cls) else { continue }
                guard let ek = try w.setEmbedded(c.name, key, p.name, [:]) else { continue }
                try fill(w, ec, eo, key: ek, keys: keys, plainToo: true)
                continue
            }
            if p.collection == .list, p.type == .link, isEmbedded(p.targetClass), case let .list(items) = v {
                for case let .link(cls, k) in items {
                    guard let ec = realm.realmClass(named: cls), let eo = try realm.object(withKey: k, in: cls),
                          let ek = try w.setEmbedded(c.name, key, p.name, [:]) else { continue }
                    try fill(w, ec, eo, key: ek, keys: keys, plainToo: true)
                }
                continue
            }
            if p.collection != nil, p.type == .link, isEmbedded(p.targetClass) {
                if count(v) > 0 { skipped.append("\(c.name).\(p.name) of #\(o.key): a \(p.collection?.rawValue ?? "") of embedded objects") }
                continue
            }
            if p.type == .mixed, containsCollection(v, nested: p.collection == nil) {
                skipped.append("\(c.name).\(p.name) of #\(o.key): a collection nested in an AnyRealmValue")
                continue
            }
            let at = "\(c.name).\(p.name) of #\(o.key)"
            switch v {
            case let .list(items), let .set(items):
                try w.setList(c.name, key, p.name, try items.compactMap { item in try storable(at) { try value(item, keys: keys) } })
            case let .dictionary(entries):
                try w.setMap(c.name, key, p.name, try entries.compactMap { e in try storable(at) { try value(e.value, keys: keys) }.map { (e.key, $0) } })
            default:
                if let x = try storable(at, { try value(v, keys: keys) }) { try w.set(c.name, key, p.name, x) }
            }
        }
    }

    /// A value Strata cannot hold; the converter leaves it out and lists it.
    struct Unstorable: Error { let reason: String }

    /// `body`'s value, or nil (recorded in ``skipped``) when Strata cannot hold it.
    private func storable(_ at: String, _ body: () throws -> Value) throws -> Value? {
        do { return try body() } catch let e as Unstorable {
            skipped.append("\(at): \(e.reason)")
            return nil
        }
    }

    private func count(_ v: RealmValue) -> Int {
        switch v {
        case let .list(x), let .set(x): return x.count
        case let .dictionary(d): return d.count
        default: return 0
        }
    }

    /// Whether `v` holds a list or dictionary where Strata wants a single Mixed value.
    private func containsCollection(_ v: RealmValue, nested: Bool) -> Bool {
        switch v {
        case let .list(x), let .set(x): return nested || x.contains { containsCollection($0, nested: true) }
        case let .dictionary(d): return nested || d.contains { containsCollection($0.value, nested: true) }
        default: return false
        }
    }

    func value(_ v: RealmValue, keys: [String: [Int64: ObjKey]]) throws -> Value {
        switch v {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .int(i): return .int(i)
        case let .float(f): return .float(f)
        case let .double(d): return .double(d)
        case let .string(s): return .string(s)
        case let .binary(b): return .data(b)
        case let .timestamp(s, n): return .date(Date(timeIntervalSince1970: Double(s) + Double(n) / 1e9))
        case let .objectId(o):
            guard let id = ObjectId(bytes: o.bytes) else { throw CLIError("invalid ObjectId \(o)", code: ExitCode32.badFile) }
            return .objectId(id)
        case let .uuid(u):
            guard let id = UUID(uuidString: u.description) else { throw CLIError("invalid UUID \(u)", code: ExitCode32.badFile) }
            return .uuid(id)
        case let .decimal128(d):
            // The same IEEE 754 decimal128 (every value, NaN and ±Inf included), bit for bit
            // apart from a NaN's payload.
            return .decimal(Decimal128(storage: d.decimalValue))
        case let .link(cls, k):
            guard let key = keys[cls]?[k] else { return .null }
            return .object(ObjectLink(className: cls, key: key))
        case .list, .set, .dictionary:
            throw Unstorable(reason: "a collection nested in an AnyRealmValue")
        }
    }
}
