import Foundation
import StrataObjects
import StrataRealm

/// `strata export` for both kinds of file: the classes chosen, then the objects written one at
/// a time as JSON (an array for one class, an object of arrays for all) or CSV (one class).
/// A Strata file is read in one read transaction (``Exporter``), a Realm file through the reader
/// (``RealmExport``); the shapes are the same.
package final class FileExport {
    private enum Source {
        case strata(DBTransaction, [ObjectSchema])
        case realm(RealmFile, [RealmClass])
    }

    private let source: Source
    /// Paths the output must not overwrite (the file, and a Strata file's lock and compaction
    /// temporary).
    package let protectedPaths: [String]

    /// Chooses the classes: `className` (an unknown or embedded class is a ``BrowserError``
    /// saying what to do), or every class that is not embedded.
    package init(_ file: ReadableFile, path: String, className: String?, label: String) throws {
        switch file {
        case .strata(let db):
            let classes: [ObjectSchema]
            if let className {
                guard let os = db.schema[className] else {
                    throw BrowserError("no class named '\(className)' in \(path) (classes: \(db.schema.classNames.joined(separator: ", ")))")
                }
                if os.isEmbedded { throw BrowserError("\(className) is embedded: its objects are exported inside their parents") }
                classes = [os]
            } else {
                classes = db.schema.objectSchemas.filter { !$0.isEmbedded }
            }
            source = .strata(try db.read(label: label), classes)
            protectedPaths = [path, db.store.lockPath, db.store.compactionTempPath]
        case .realm(let realm):
            source = .realm(realm, try RealmExport.classes(realm, className: className, path: path))
            protectedPaths = [path] + RealmFile.companionPaths(of: path)
        }
    }

    deinit { end() }

    /// Ends the read transaction of a Strata file (also done when the export goes away).
    package func end() {
        if case .strata(let txn, _) = source { txn.end() }
    }

    /// Writes the chosen classes as CSV (one class) or JSON (`single`: an array for the one
    /// class asked for, else an object of arrays by class name). `progress` gets the fraction
    /// done and the class being written every 4096 objects.
    package func write(csv: Bool, single: Bool, progress: (Double, String) -> Void, to write: (String) throws -> Void) throws {
        switch source {
        case .realm(let realm, let classes):
            try RealmExport.write(realm, classes: classes, csv: csv, single: single, to: write)
        case .strata(let txn, let classes):
            try Self.writeStrata(txn, classes: classes, csv: csv, single: single, progress: progress, to: write)
        }
    }

    private static func writeStrata(_ txn: DBTransaction, classes: [ObjectSchema], csv: Bool, single: Bool,
                                    progress: (Double, String) -> Void, to write: (String) throws -> Void) throws {
        let exporter = Exporter(txn: txn)
        let total = max(1, try classes.reduce(0) { $0 + (try txn.count($1.className)) })
        var done = 0
        if csv {
            let os = classes[0]
            try write(exporter.exportedProperties(os).map { CSVText.quote($0.name, force: false) }.joined(separator: ",") + "\n")
            try exporter.forEachObject(os.className) { cluster, row in
                try write(try exporter.csvRecord(os, key: cluster.key(row)) + "\n")
                done += 1
                if done % 4096 == 0 { progress(Double(done) / Double(total), os.className) }
            }
            return
        }
        if !single { try write("{\n") }
        for (index, os) in classes.enumerated() {
            if !single { try write(JSON.quote(os.className) + ": ") }
            try write("[")
            var first = true
            try exporter.forEachObject(os.className) { cluster, row in
                try write((first ? "\n" : ",\n") + (try exporter.jsonObject(os, key: cluster.key(row))))
                first = false
                done += 1
                if done % 4096 == 0 { progress(Double(done) / Double(total), os.className) }
            }
            try write(first ? "]" : "\n]")
            if !single { try write(index < classes.count - 1 ? ",\n" : "\n") }
        }
        try write(single ? "\n" : "}\n")
    }
}
