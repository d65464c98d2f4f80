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
    @Flag(name: .customLong("allow-loss"),
          help: "Convert even when some values cannot be stored in a Strata file (dates outside 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z, sets holding both 0 and -0.0, collections nested in an AnyRealmValue, maps or sets of embedded objects): they are left out and listed. Without it such a file is not converted. Every Decimal128 converts.")
    var allowLoss = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        if FileManager.default.fileExists(atPath: destination) {
            throw CLIError("\(destination) already exists; convert never overwrites a file: choose another path or delete it", code: ExitCode32.refused)
        }
        try refuseRealmNamedNewFile(destination)
        try requireWritableDirectory(for: destination)
        let realm = try openRealmFile(source, key: try common.key())
        let converter = RealmConverter(realm: realm)
        let schema = try converter.schema()
        let bar = ProgressBar()
        do {
            let db = try Database(path: destination, schema: schema)
            defer { db.close() }
            try converter.copyObjects(into: db, allowLoss: allowLoss) { bar.update($0, "converting") }
            bar.finish()
        } catch {
            bar.finish()
            // A failed conversion leaves nothing behind (the destination did not exist before).
            for path in [destination, destination + ".lock"] { try? FileManager.default.removeItem(atPath: path) }
            if error is RealmConverter.LossRefused {
                out.note("strata: \(converter.skipped.count) value\(converter.skipped.count == 1 ? "" : "s") of \(source) cannot be stored in a Strata file:")
                noteSkipped(converter, out)
                throw CLIError("nothing was written; pass --allow-loss to convert without these values", code: ExitCode32.refused)
            }
            if let e = error as? CLIError { throw e }
            if let e = error as? RealmFileError { throw CLIError("\(source): \(e.description)", code: ExitCode32.badFile) }
            throw cliError(error)
        }
        let classes = realm.browsableClasses
        let total = classes.filter { !$0.isEmbedded }.reduce(0) { $0 + $1.objectCount }
        if !converter.droppedIndexes.isEmpty {
            out.note("strata: not indexed in \(destination) (Strata indexes Bool, Int, String, ObjectId, UUID and Date properties only): \(converter.droppedIndexes.joined(separator: ", "))")
        }
        if !converter.skipped.isEmpty {
            out.note("strata: \(converter.skipped.count) value\(converter.skipped.count == 1 ? "" : "s") cannot be stored in a Strata file and were left out (--allow-loss):")
            noteSkipped(converter, out)
        }
        try out.line("converted \(source) (Realm format \(realm.formatVersion), \(classes.count) class\(classes.count == 1 ? "" : "es"), \(Formatting.number(total)) object\(total == 1 ? "" : "s")) to \(destination)")
        return 0
    }
}

extension Convert {
    /// What was left out: the count of each kind, then the first 20 values.
    func noteSkipped(_ converter: RealmConverter, _ out: CommandOutput) {
        var byReason: [String: Int] = [:]
        for s in converter.skipped { byReason[s.reason, default: 0] += 1 }
        for (reason, n) in byReason.sorted(by: { $0.key < $1.key }) { out.note("  \(Formatting.number(n)) × \(reason)") }
        for s in converter.skipped.prefix(20) { out.note("  - \(s.place): \(s.detail)") }
        if converter.skipped.count > 20 { out.note("  … and \(converter.skipped.count - 20) more") }
    }
}

/// Maps a Realm file's schema and objects to Strata's. Objects get new keys; links are remapped
/// (all top-level objects are created first, then links, collections and embedded objects set).
/// Values a Strata file cannot hold (dates outside its range, a set's second element equal to
/// another such as -0.0 beside 0, maps of embedded objects, collections nested inside an
/// AnyRealmValue) are listed in ``skipped``;
/// unless the loss is allowed, the write is then abandoned (``LossRefused``).
final class RealmConverter {
    let realm: RealmFile
    /// A value left out: where it is, the kind of value (for the summary) and the value.
    struct Skipped {
        let place: String
        let reason: String
        let detail: String
    }
    /// Every value left out.
    private(set) var skipped: [Skipped] = []
    /// Indexed properties (`Class.property`) whose index a Strata file cannot hold (their values
    /// are converted; the index is not).
    private(set) var droppedIndexes: [String] = []
    /// Thrown (after the write is aborted) when values would be lost and that is not allowed.
    struct LossRefused: Error {}

    init(realm: RealmFile) { self.realm = realm }

    func schema() throws -> Schema {
        Schema(try realm.browsableClasses.map { c in
            ObjectSchema(className: c.name, properties: try c.properties.map { try property($0, of: c.name) } + c.backlinks.compactMap { b in
                // Strata backlinks come from link properties only (not from AnyRealmValue ones).
                guard let origin = b.targetClass, let property = b.originProperty,
                      realm.realmClass(named: origin)?.properties.first(where: { $0.name == property })?.type == .link else { return nil }
                return PropertySchema(name: "\(origin.prefix(1).lowercased())\(origin.dropFirst())_\(property)", type: .linkingObjects,
                                      objectClassName: origin, linkOriginPropertyName: property)
            }, isEmbedded: c.isEmbedded)
        })
    }

    func property(_ p: RealmProperty, of className: String) throws -> PropertySchema {
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
        // An index Strata cannot keep (AnyRealmValue, Double, …) is left out: the values are
        // all there, only lookups by them are not indexed.
        let indexable = p.isPrimaryKey || (type.canBeIndexed && collection == .single)
        if p.isIndexed && !indexable { droppedIndexes.append("\(className).\(p.name)") }
        return PropertySchema(name: p.name, type: type, collection: collection, isOptional: optional,
                              objectClassName: type == .object ? p.targetClass : nil,
                              isPrimaryKey: p.isPrimaryKey, isIndexed: p.isIndexed && indexable)
    }

    func isEmbedded(_ className: String?) -> Bool {
        className.flatMap { realm.realmClass(named: $0)?.isEmbedded } ?? false
    }

    /// Properties set at creation: single values that are not links.
    func isPlain(_ p: RealmProperty) -> Bool { p.collection == nil && p.type != .link && p.type != .mixed }

    func copyObjects(into db: Database, allowLoss: Bool, progress: (Double) -> Void) throws {
        let top = realm.browsableClasses.filter { !$0.isEmbedded }
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
                        // A required date cannot be left out (it would read as 1970, a made-up
                        // date): it becomes the nearest end of the range, as through the Swift
                        // API, and is listed as such.
                        if values[p.name] == nil, !p.isNullable, case let .timestamp(seconds, _) = v, let last = skipped.popLast() {
                            values[p.name] = .date(seconds < 0 ? Timestamp.min : Timestamp.max)
                            skipped.append(Skipped(place: last.place, reason: Self.requiredDateReason, detail: last.detail))
                        }
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
            if !skipped.isEmpty && !allowLoss { throw LossRefused() }
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
                if case let .dictionary(entries) = v {
                    for e in entries where !e.value.isNull {
                        skipped.append(Skipped(place: "\(c.name).\(p.name)['\(e.key)'] of #\(o.key)", reason: "embedded object in a map (Strata maps hold links, not embedded objects)",
                                               detail: "\(p.targetClass ?? "embedded") object\(embeddedChildren(e.value))"))
                    }
                } else if count(v) > 0 {
                    skipped.append(Skipped(place: "\(c.name).\(p.name) of #\(o.key)", reason: "set of embedded objects", detail: "\(count(v)) objects"))
                }
                continue
            }
            if p.type == .mixed, containsCollection(v, nested: p.collection == nil) {
                skipped.append(Skipped(place: "\(c.name).\(p.name) of #\(o.key)", reason: "collection nested in an AnyRealmValue", detail: String(v.description.prefix(60))))
                continue
            }
            let at = "\(c.name).\(p.name) of #\(o.key)"
            switch v {
            case let .list(items):
                try w.setList(c.name, key, p.name, try items.compactMap { item in try storable(at) { try value(item, keys: keys) } })
            case let .set(items):
                // A Strata set holds values that compare equal once (0 and -0.0 are one Double):
                // a Realm set holding both loses one, and that is listed, not done silently.
                var seen = Set<Value>()
                var elements: [Value] = []
                for (item, original) in zip(try items.map { item in try storable(at) { try value(item, keys: keys) } }, items) {
                    guard let item else { continue }
                    if seen.insert(item).inserted { elements.append(item) } else {
                        skipped.append(Skipped(place: at, reason: "set element equal to another in a Strata set (0 and -0.0 are one value)",
                                               detail: original.description))
                    }
                }
                try w.setList(c.name, key, p.name, elements)
            case let .dictionary(entries):
                try w.setMap(c.name, key, p.name, try entries.compactMap { e in try storable(at) { try value(e.value, keys: keys) }.map { (e.key, $0) } })
            default:
                if let x = try storable(at, { try value(v, keys: keys) }) { try w.set(c.name, key, p.name, x) }
            }
        }
    }

    /// How a required date outside the range is listed (it is stored as the nearest end).
    static let requiredDateReason = "date outside the dates Strata stores, in a required property: stored as the nearest end (\(TimestampError.rangeText))"

    /// A value Strata cannot hold; the converter leaves it out and lists it.
    struct Unstorable: Error {
        let reason: String
        let detail: String
    }

    /// " with its EmbeddedChild" when an embedded object owns others (they are lost with it).
    private func embeddedChildren(_ v: RealmValue) -> String {
        guard case let .link(cls, key) = v, let c = realm.realmClass(named: cls), let o = try? realm.object(withKey: key, in: cls) else { return "" }
        var owned: [String] = []
        for (p, value) in zip(c.properties, o.values) where p.type == .link && isEmbedded(p.targetClass) {
            if case .link = value { owned.append(p.targetClass ?? "") } else if count(value) > 0 { owned.append("\(count(value)) \(p.targetClass ?? "")") }
        }
        return owned.isEmpty ? "" : " with its " + owned.joined(separator: ", ")
    }

    /// `body`'s value, or nil (recorded in ``skipped``) when Strata cannot hold it.
    private func storable(_ at: String, _ body: () throws -> Value) throws -> Value? {
        do { return try body() } catch let e as Unstorable {
            skipped.append(Skipped(place: at, reason: e.reason, detail: e.detail))
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
        case let .timestamp(s, n):
            // To the nanosecond; a date outside what a Strata date holds is listed, not moved.
            guard let t = Timestamp(seconds: s, nanoseconds: Int64(n)) else {
                throw Unstorable(reason: "date outside the dates Strata stores (\(TimestampError.rangeText))",
                                 detail: RealmTimestampFormat.iso8601(seconds: s, nanoseconds: n))
            }
            return .date(t)
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
            throw Unstorable(reason: "collection nested in an AnyRealmValue", detail: String(v.description.prefix(60)))
        }
    }
}
