import Foundation
import StrataObjects
import StrataRealm

/// A file a read-only command opened: a Strata database or a `.realm` file written by
/// realm-core (read through `StrataRealm`, never written). Commands hand it to the reports
/// (``FileReports``) and print what they return, so a command file has one path for both.
package enum ReadableFile {
    case strata(Database)
    case realm(RealmFile)

    /// True for a file with realm-core's "T-DB" mnemonic at offset 16, or (encrypted Realm
    /// files have no readable header) a name ending in `.realm`.
    package static func isRealmFile(_ path: String) -> Bool {
        if path.hasSuffix(".realm") { return true }
        // Only a regular file is read: opening a FIFO would block until a writer appears (the
        // engine refuses non-regular paths with a clear error afterwards).
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 24)) ?? Data()
        return header.count == 24 && Array(header[16..<20]) == Array("T-DB".utf8)
    }

    /// Closes a Strata database (a Realm file holds nothing open but its mapping).
    package func close() {
        if case .strata(let db) = self { db.close() }
    }
}

/// A report as a command prints it: text lines, or one JSON document.
package struct CommandReport {
    package var lines: [String] = []
    package var json: JSON = .null
    /// When set, the command prints the report and then fails with this message (`check`).
    package var failure: String?

    package init(lines: [String] = [], json: JSON = .null, failure: String? = nil) {
        self.lines = lines
        self.json = json
        self.failure = failure
    }
}

/// The read-only reports of `strata info`, `schema`, `space`, `check` and `query`, for both kinds of
/// file (one file per report: FileReports+Info.swift, …).
package enum FileReports {}
