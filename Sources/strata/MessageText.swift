import Foundation

/// `message` followed by `; clause`: what a message says, then what to do or what happened. The
/// message's own closing punctuation is dropped first, so a sentence ending in a period (as
/// ArgumentParser's "Please provide one of 'json' and 'csv'.") does not read `'csv'.; see`.
func appendingClause(_ message: String, _ clause: String) -> String {
    var end = message.endIndex
    while end > message.startIndex, let last = message[..<end].last, last == "." || last == ";" || last == "," || last == ":" || last.isWhitespace {
        end = message.index(before: end)
    }
    let stem = message[..<end]
    return stem.isEmpty ? clause : stem + "; " + clause
}
