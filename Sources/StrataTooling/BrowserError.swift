/// An error the browser shows to the user: a message and, for queries, the position
/// (0-based character offset in the query) where the problem is.
public struct BrowserError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var position: Int?

    public init(_ message: String, position: Int? = nil) {
        self.message = message
        self.position = position
    }

    public var description: String {
        if let position { return "\(message) (at \(position + 1))" }
        return message
    }
}
