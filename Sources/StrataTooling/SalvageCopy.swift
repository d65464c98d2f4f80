import Foundation
import StrataObjects
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// Objects of one class that could not be read, and why: a run of positions in the class whose
/// objects all failed with the same problem (a block that fails its checksum).
package struct SkippedObjects: Equatable, Sendable {
    package var className: String
    /// Positions (0-based, in key order) of the first and last object of the run.
    package var firstPosition: Int
    package var lastPosition: Int
    /// The key of the readable object just before the run (nil: the run starts the class).
    package var keyBefore: ObjKey?
    /// The key of the readable object just after the run (nil: the run ends the class).
    package var keyAfter: ObjKey?
    /// The engine's description of the failure ("block at offset N (… bytes, written by version
    /// V) fails its checksum").
    package var problem: String

    /// How many objects the run holds; nil when the class's own tree could not be read (its
    /// objects cannot even be counted).
    package var count: Int? { lastPosition >= firstPosition ? lastPosition - firstPosition + 1 : nil }

    /// The keys the run can hold: between the readable neighbours' keys ("keys 120…239",
    /// "keys ≥ 5", "keys ≤ 9", "every key").
    package var keyRange: String {
        switch (keyBefore, keyAfter) {
        case let (before?, after?): return "keys \(before + 1)…\(after - 1)"
        case let (before?, nil): return "keys ≥ \(before + 1)"
        case let (nil, after?): return "keys ≤ \(after - 1)"
        case (nil, nil): return "every key"
        }
    }

    /// `Person: 1,024 objects (keys 1…1024, positions 1–1,024): block at offset 81920 (…) fails its checksum`.
    package var description: String {
        guard let count else { return "\(className): every object (the class cannot be read, not even counted): \(problem)" }
        return "\(className): \(Formatting.number(count)) object\(count == 1 ? "" : "s") (\(keyRange), positions "
            + "\(Formatting.number(firstPosition + 1))–\(Formatting.number(lastPosition + 1))): \(problem)"
    }
}

/// What a salvage copy wrote and left out.
package struct SalvageResult: Sendable {
    /// Objects of top-level classes in the source (of those that could be counted), and how many
    /// the copy holds.
    package var sourceObjects: Int
    package var copiedObjects: Int
    package var skipped: [SkippedObjects]
    /// Links and list items that pointed to an object left out (set to null or dropped).
    package var droppedLinks: Int
}

/// A copy of a damaged file that keeps every object it can read (`strata copy --skip-unreadable`).
///
/// The block-level copy (`Store.writeCopy`) refuses a block that fails its checksum. This copy
/// goes object by object instead, through the same reads as every other command (each block's
/// checksum verified): pass 1 reads each object of each top-level class completely (values,
/// collections, embedded objects; links as stored, without reading their targets) and creates it
/// in the new file with its plain values; objects
/// that cannot be read are left out and listed, grouped by the block that failed. Pass 2 sets
/// links (mapped to the new objects' keys; a link to an object left out becomes null or is
/// dropped from its list), collections, `AnyRealmValue` values and embedded objects. Indexes are
/// rebuilt; the commit history starts anew.
///
/// The copy is built in a temporary file next to `destination` and linked into place only when
/// complete (never replacing a file); on any failure the temporary file is removed.
package enum SalvageCopy {
    /// The files a copy to `destination` by this process builds before linking it into place
    /// (the temporary database and its lock file), for a caller that removes its temporaries
    /// when the process is interrupted.
    package static func temporaryPaths(for destination: String) -> [String] {
        let temporary = destination + ".salvage-\(getpid())"
        return [temporary, temporary + ".lock"]
    }

    package static func copy(from source: Database, to destination: String, encryptionKey: [UInt8]?,
                             progress: (Double) -> Void = { _ in }) throws -> SalvageResult {
        let temporary = temporaryPaths(for: destination)[0]
        func removeTemporary() {
            unlink(temporary)
            unlink(temporary + ".lock")
        }
        removeTemporary()
        do {
            let result = try build(source, at: temporary, encryptionKey: encryptionKey, progress: progress)
            // link() never replaces an existing file, unlike rename().
            guard link(temporary, destination) == 0 else {
                let e = errno
                if e == EEXIST { throw CompactionError.destinationExists(path: destination) }
                throw StorageError.io(path: destination, operation: "link copy into place", errno: e)
            }
            removeTemporary()
            return result
        } catch {
            removeTemporary()
            throw error
        }
    }

    private static func build(_ source: Database, at path: String, encryptionKey: [UInt8]?,
                              progress: (Double) -> Void) throws -> SalvageResult {
        let reader = try source.read(label: "strata copy")
        defer { reader.end() }
        let schema = source.schema
        var options = StoreOptions()
        options.encryptionKey = encryptionKey
        options.label = "strata copy"
        options.automaticCompaction = false
        let target = try Database(path: path, options: options, schema: schema, schemaVersion: source.schemaVersion)
        defer { target.close() }
        let classes = schema.objectSchemas.filter { !$0.isEmbedded }
        var counts: [String: Int] = [:]
        var uncountable: [SkippedObjects] = []
        for os in classes {
            do {
                counts[os.className] = try reader.count(os.className)
            } catch StorageError.corrupted(_, let detail) {
                uncountable.append(SkippedObjects(className: os.className, firstPosition: 0, lastPosition: -1,
                                                  keyBefore: nil, keyAfter: nil, problem: detail))
            }
        }
        let total = counts.values.reduce(0, +)
        var done = 0
        var result = SalvageResult(sourceObjects: total, copiedObjects: 0, skipped: uncountable, droppedLinks: 0)
        var keys: [String: [ObjKey: ObjKey]] = [:]
        var order: [String: [ObjKey]] = [:]
        let writer = try target.write(label: "strata copy")
        do {
            // Pass 1: every object that can be read completely, created with its plain values.
            for os in classes {
                var map: [ObjKey: ObjKey] = [:]
                var copied: [ObjKey] = []
                var run: SkippedObjects?
                for position in 0..<(counts[os.className] ?? 0) {
                    done += 1
                    if done % 1024 == 0 { progress(Double(done) / Double(max(1, 2 * total))) }
                    do {
                        guard let key = try reader.objectKey(os.className, at: position) else { continue }
                        let object = try read(reader, os, key, schema: schema)
                        if var finished = run {
                            finished.keyAfter = key
                            result.skipped.append(finished)
                            run = nil
                        }
                        map[key] = try writer.create(os.className, values: object.plain)
                        copied.append(key)
                    } catch let error as StorageError {
                        guard case .corrupted(_, let detail) = error else { throw error }
                        if var current = run, current.problem == detail {
                            current.lastPosition = position
                            run = current
                        } else {
                            if let finished = run { result.skipped.append(finished) }
                            run = SkippedObjects(className: os.className, firstPosition: position, lastPosition: position,
                                                 keyBefore: copied.last, keyAfter: nil, problem: detail)
                        }
                    }
                }
                if let finished = run { result.skipped.append(finished) }
                keys[os.className] = map
                order[os.className] = copied
                result.copiedObjects += copied.count
            }
            // Pass 2: links, collections, Mixed values and embedded objects, with the new keys.
            var mapper = LinkMapper(keys: keys)
            for os in classes {
                for key in order[os.className] ?? [] {
                    done += 1
                    if done % 1024 == 0 { progress(Double(done) / Double(max(1, 2 * total))) }
                    guard let newKey = keys[os.className]?[key] else { continue }
                    let object = try read(reader, os, key, schema: schema)
                    try fill(writer, os.className, newKey, object, mapper: &mapper)
                }
            }
            result.droppedLinks = mapper.dropped
            try writer.commit()
        } catch {
            writer.abort()
            throw error
        }
        progress(1)
        return result
    }

    /// One object read completely: plain values (set at creation), the rest (set in pass 2).
    private struct ObjectData {
        var plain: [String: Value] = [:]
        var links: [String: Value] = [:]
        var lists: [String: [Value]] = [:]
        var maps: [String: [(String, Value)]] = [:]
        var embedded: [String: [ObjectData]] = [:]
    }

    /// Reads the object's own blocks only: links are taken as stored, not checked against their
    /// target (whose class may be the damaged part; a link to an object left out is dropped in
    /// pass 2).
    private static func read(_ txn: DBTransaction, _ os: ObjectSchema, _ key: ObjKey, schema: Schema) throws -> ObjectData {
        var data = ObjectData()
        guard let (cluster, row) = try txn.clusterOf(os.className, key) else {
            throw ObjectError.noSuchObject(className: os.className, key: key)
        }
        for p in os.storedProperties {
            let embeddedClass = p.type == .object ? p.objectClassName.flatMap { schema[$0] }.flatMap { $0.isEmbedded ? $0 : nil } : nil
            switch p.collection {
            case .single:
                let v = try cluster.column(p.name).value(row)
                if let embeddedClass {
                    if case .object(let link) = v { data.embedded[p.name] = [try read(txn, embeddedClass, link.key, schema: schema)] }
                } else if p.type == .object || p.type == .mixed {
                    data.links[p.name] = v
                } else {
                    data.plain[p.name] = v
                }
            case .list, .set:
                let items = try cluster.collection(p.name, row: row)
                if let embeddedClass {
                    data.embedded[p.name] = try items.compactMap { item in
                        guard case .object(let link) = item else { return nil }
                        return try read(txn, embeddedClass, link.key, schema: schema)
                    }
                } else {
                    data.lists[p.name] = items
                }
            case .map:
                data.maps[p.name] = try txn.map(os.className, key, p.name).map { ($0.key, $0.value) }
            }
        }
        return data
    }

    /// Old object keys → new ones, per class; counts the links to objects left out.
    private struct LinkMapper {
        var keys: [String: [ObjKey: ObjKey]]
        var dropped = 0

        /// The value with its link re-pointed; nil for a link to an object that was left out.
        mutating func map(_ v: Value) -> Value? {
            guard case .object(let link) = v else { return v }
            guard let key = keys[link.className]?[link.key] else { dropped += 1; return nil }
            return .object(ObjectLink(className: link.className, key: key))
        }
    }

    private static func fill(_ w: DBTransaction, _ className: String, _ key: ObjKey, _ object: ObjectData,
                             mapper: inout LinkMapper) throws {
        for (name, v) in object.links {
            let mapped = mapper.map(v) ?? .null
            if !mapped.isNull { try w.set(className, key, name, mapped) }
        }
        for (name, items) in object.lists where !items.isEmpty {
            try w.setList(className, key, name, items.compactMap { mapper.map($0) })
        }
        for (name, entries) in object.maps where !entries.isEmpty {
            try w.setMap(className, key, name, entries.map { ($0.0, mapper.map($0.1) ?? .null) })
        }
        for (name, children) in object.embedded {
            for child in children {
                guard let childKey = try w.setEmbedded(className, key, name, child.plain),
                      let childClass = w.schema[className]?[name]?.objectClassName else { continue }
                try fill(w, childClass, childKey, child, mapper: &mapper)
            }
        }
    }
}
