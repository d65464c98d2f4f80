import Foundation
import StrataTooling

/// A one-line text input on the message line.
struct Prompt {
    enum Purpose {
        case filter(className: String)
        case editValue(ref: ObjectRef, property: PropertyDescription)
        case editCollectionItem(owner: ObjectRef, property: PropertyDescription, index: Int)
        case addCollectionItem(owner: ObjectRef, property: PropertyDescription)
        /// Adding an object: one prompt per field; `values` holds the fields answered so far.
        case addObject(className: String, fields: [PropertyDescription], field: Int, values: [String: String])
    }

    var purpose: Purpose
    var label: String
    var text: String
    /// Insertion point, in characters.
    var cursor: Int
    /// Why the text last accepted was refused (the add form stays on that field, its text
    /// kept); shown above the prompt until the next Enter.
    var error: String? = nil

    init(purpose: Purpose, label: String, text: String = "") {
        self.purpose = purpose
        self.label = label
        self.text = text
        cursor = text.count
    }

    /// Applies an editing key; returns `false` for keys a prompt does not handle.
    ///
    /// The cursor counts Characters (grapheme clusters) of `text`. A typed scalar can merge with
    /// its neighbours into one Character (`e` + U+0301 is `é`, two regional indicators are one
    /// flag), so after an insertion the cursor is recounted from the text before it rather than
    /// advanced by one, and it is clamped to the text on every key.
    mutating func edit(_ key: Key) -> Bool {
        let characters = Array(text)
        cursor = max(0, min(cursor, characters.count))
        switch key {
        case .character(let character):
            let head = String(characters[..<cursor]) + String(character)
            text = head + String(characters[cursor...])
            cursor = min(head.count, text.count)
        case .backspace:
            guard cursor > 0 else { return true }
            text = String(characters[..<(cursor - 1)]) + String(characters[cursor...])
            cursor = min(cursor - 1, text.count)
        case .delete:
            guard cursor < characters.count else { return true }
            text = String(characters[..<cursor]) + String(characters[(cursor + 1)...])
            cursor = min(cursor, text.count)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            text = ""
            cursor = 0
        default: return false
        }
        return true
    }
}

/// What a yes/no confirmation does on `y`.
enum ConfirmAction {
    case deleteObject(LabeledObjectRef)
    case removeCollectionItem(owner: ObjectRef, property: PropertyDescription, index: Int, label: String)
    case quit
}

/// The steps of the compaction flow started with `c`.
enum CompactionStep {
    /// Nobody else has the file open: confirm a full compaction.
    case confirm(CompactionPlan)
    /// Others have it open: say who, offer online compaction.
    case onlineOffer(CompactionPlan)
    case running(online: Bool, progress: CompactionProgressReport)
    case finished(CompactionOutcome)
}

/// A window over the screen that takes the keys until closed.
enum Overlay {
    case help
    case confirm(question: String, action: ConfirmAction)
    case compaction(CompactionStep)
}

/// One line of the Log screen.
package struct LogEntry: Hashable, Sendable {
    package enum Kind: String, Sendable { case commit, compaction, error, info }
    package var time: Date
    package var kind: Kind
    package var text: String
}

/// A short message on the message line until the next key.
struct StatusMessage {
    var text: String
    var isError: Bool
    /// The class and filter of a "filter: … — N objects" message: its count follows the table
    /// when another process's commit changes it (it kept the count of the moment of filtering).
    var filtered: (className: String, filter: String)? = nil

    /// The message that confirms a filter, with its current count.
    static func filterResult(className: String, filter: String, count: RowCount) -> StatusMessage {
        StatusMessage(text: "filter: \(filter) — \(Formatting.count(count)) objects", isError: false, filtered: (className, filter))
    }
}
