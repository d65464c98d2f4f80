import Foundation
import StrataTooling

/// Where a key is read: overlays and prompts first, then the global keys, then the screen's own.
enum KeyContext: String, Decodable, Sendable, CaseIterable {
    case global, help, confirm, compaction, prompt, sidebar, data, table, detail, report
}

/// What a key does. The raw values are the action ids of `Resources/keymap.json`; the key
/// dispatch switches over this enum, so every id in the key map has a handler (the decoder
/// rejects unknown ids) and the compiler checks that every case is handled.
enum KeyAction: String, Decodable, Sendable, CaseIterable {
    case screenData = "screen.data", screenVersions = "screen.versions", screenSpace = "screen.space"
    case screenLog = "screen.log", screenCompaction = "screen.compaction"
    case screenNext = "screen.next", screenPrevious = "screen.previous"
    case compact, help, quit, reload
    case helpClose = "help.close"
    case confirmYes = "confirm.yes", confirmNo = "confirm.no"
    case compactionConfirm = "compaction.confirm", compactionOnline = "compaction.online"
    case compactionCancel = "compaction.cancel"
    case promptAccept = "prompt.accept", promptCancel = "prompt.cancel", promptEdit = "prompt.edit"
    case promptQuit = "prompt.quit"
    case sidebarDown = "sidebar.down", sidebarUp = "sidebar.up", sidebarFirst = "sidebar.first"
    case sidebarLast = "sidebar.last", sidebarLeave = "sidebar.leave"
    case dataOpen = "data.open", dataBack = "data.back", dataBacklinks = "data.backlinks"
    case dataFilter = "data.filter", dataSort = "data.sort", dataEdit = "data.edit", dataAdd = "data.add"
    case dataDelete = "data.delete"
    case tableDown = "table.down", tableUp = "table.up", tableLeft = "table.left", tableRight = "table.right"
    case tableFirstRow = "table.firstRow", tableLastRow = "table.lastRow"
    case tableFirstColumn = "table.firstColumn", tableLastColumn = "table.lastColumn"
    case tableHalfPageDown = "table.halfPageDown", tableHalfPageUp = "table.halfPageUp"
    case tablePageDown = "table.pageDown", tablePageUp = "table.pageUp"
    case detailDown = "detail.down", detailUp = "detail.up", detailLeft = "detail.left"
    case detailFirst = "detail.first", detailLast = "detail.last"
    case detailHalfPageDown = "detail.halfPageDown", detailHalfPageUp = "detail.halfPageUp"
    case detailPageDown = "detail.pageDown", detailPageUp = "detail.pageUp"
    case reportDown = "report.down", reportUp = "report.up", reportTop = "report.top", reportEnd = "report.end"
    case reportHalfPageDown = "report.halfPageDown", reportHalfPageUp = "report.halfPageUp"
    case reportPageDown = "report.pageDown", reportPageUp = "report.pageUp"
}

/// One row of the key map: the keys that run `action` in `context`, the `?` help lines it
/// contributes (`[keys, text]` under `group`) and its place in screens' hint bars.
struct KeyBinding: Decodable, Sendable {
    struct Hint: Decodable, Sendable {
        var label: String
        var text: String
        /// Screen title (lowercased) → position in that screen's hint bar.
        var screens: [String: Int]
    }

    var context: KeyContext
    var action: KeyAction
    var keys: [String]
    var group: String?
    var help: [[String]]?
    var hint: Hint?
}

/// A key map that cannot be used, with what to fix in `Resources/keymap.json`.
struct KeyMapError: Error, CustomStringConvertible {
    var description: String
}

/// The one table of the browser's keys (`Resources/keymap.json`, embedded at build time):
/// key dispatch, the help overlay and the hint bar all read it.
struct KeyMap: Sendable {
    let bindings: [KeyBinding]
    private let actions: [KeyContext: [Key: KeyAction]]

    /// The key map built into the binary. The embedded file is checked by `KeyMapTests`, so a
    /// failure here means the build embedded a key map the tests rejected.
    static let standard: KeyMap = {
        do {
            return try KeyMap(json: StrataBrowserResources.files["keymap.json"] ?? "")
        } catch {
            fatalError("Resources/keymap.json: \(error)")
        }
    }()

    init(json: String) throws {
        struct File: Decodable { var bindings: [KeyBinding] }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(json.utf8))
        } catch {
            throw KeyMapError(description: "not a valid key map (unknown context or action id, or bad JSON): \(error)")
        }
        var actions: [KeyContext: [Key: KeyAction]] = [:]
        for binding in file.bindings {
            for name in binding.keys {
                guard let key = Key(name: name) else {
                    throw KeyMapError(description: "\(binding.action.rawValue): unknown key name '\(name)'")
                }
                if let other = actions[binding.context]?[key] {
                    throw KeyMapError(description: "'\(name)' is bound twice in \(binding.context.rawValue): \(other.rawValue) and \(binding.action.rawValue)")
                }
                actions[binding.context, default: [:]][key] = binding.action
            }
            for line in binding.help ?? [] where line.count != 2 || binding.group == nil {
                throw KeyMapError(description: "\(binding.action.rawValue): help lines are [keys, text] and need a group")
            }
        }
        bindings = file.bindings
        self.actions = actions
    }

    /// The action `key` runs in `context`, if any.
    func action(for key: Key, in context: KeyContext) -> KeyAction? {
        actions[context]?[key]
    }

    /// The help overlay's lines: (keys, text), and (group title, "") where a group starts.
    /// Lines repeated by several bindings are shown once, where they first appear.
    var helpEntries: [(String, String)] {
        var entries: [(String, String)] = []
        var seen: Set<[String]> = []
        var groupsShown: Set<String> = []
        for binding in bindings {
            guard let group = binding.group else { continue }
            for line in binding.help ?? [] where seen.insert([group] + line).inserted {
                if groupsShown.insert(group).inserted { entries.append((group, "")) }
                entries.append((line[0], line[1]))
            }
        }
        return entries
    }

    /// The hint bar of `screen`: (keys, text) in the order the key map gives.
    func hints(for screen: BrowserScreen) -> [(String, String)] {
        hints(named: screen.title.lowercased())
    }

    /// The keys line of a dialog (`dialog.compaction`, `dialog.online`), as for a screen.
    func hints(forDialog name: String) -> [(String, String)] {
        hints(named: "dialog." + name)
    }

    private func hints(named name: String) -> [(String, String)] {
        let placed: [(position: Int, label: String, text: String)] = bindings.compactMap { binding in
            guard let hint = binding.hint, let position = hint.screens[name] else { return nil }
            return (position, hint.label, hint.text)
        }
        return placed.sorted { $0.position < $1.position }.map { ($0.label, $0.text) }
    }
}

/// The browser's keys for other targets (`strata browse --help`), from the same key map.
package enum BrowserKeys {
    /// The help overlay's lines as plain text: group titles, then `  keys  what they do`.
    package static var helpText: String {
        let entries = KeyMap.standard.helpEntries
        let width = entries.filter { !$0.1.isEmpty }.map { DisplayWidth.of($0.0) }.max() ?? 0
        return entries.map { keys, text in
            text.isEmpty ? keys : "  " + keys + String(repeating: " ", count: width - DisplayWidth.of(keys)) + "  " + text
        }.joined(separator: "\n")
    }
}
