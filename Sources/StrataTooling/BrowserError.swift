/// An error the browser shows to the user: a message and, for queries, the position
/// (0-based character offset in the query) where the problem is.
package struct BrowserError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package var position: Int?

    package init(_ message: String, position: Int? = nil) {
        self.message = message
        self.position = position
    }

    package var description: String {
        if let position { return "\(message) (at \(position + 1))" }
        return message
    }
}
