import Foundation
import XCTest
@testable import StrataBrowser

/// The README's key table (section "The browser") lists the same keys as `Resources/keymap.json`.
///
/// Format: a Markdown table with the header `| Group | Keys | What they do |`, then one row per
/// help line in the key map's order: `| Screens | `1-5 Tab S-Tab` | switch screen |` (keys in
/// backticks; runs of spaces count as one).
final class ReadmeKeyTableTests: XCTestCase {
    static let header = "| Group | Keys | What they do |"

    /// The table the README should hold, from the key map.
    static var expectedTable: String {
        var group = ""
        var lines = [header, "|---|---|---|"]
        for (keys, text) in KeyMap.standard.helpEntries {
            if text.isEmpty { group = keys; continue }
            lines.append("| \(group) | `\(keys)` | \(text) |")
        }
        return lines.joined(separator: "\n")
    }

    func testReadmeKeyTableMatchesKeyMap() throws {
        let readmeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "\n## ").first { $0.hasPrefix("The browser") },
                                    "README.md has no '## The browser' section")
        let lines = section.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { normalize($0) == Self.header }) else {
            return XCTFail("README.md's 'The browser' section has no key table; add:\n\(Self.expectedTable)")
        }
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map(normalize)
        let expected = Self.expectedTable.components(separatedBy: "\n").dropFirst(2).map(normalize)
        XCTAssertEqual(rows, Array(expected), "README.md's key table differs from Resources/keymap.json; it should read:\n\(Self.expectedTable)")
    }

    private func normalize(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
