/// Every failure of the query layer: a syntax error while parsing (with a 1-based position in the
/// query text) or a semantic error while binding to a schema (unknown class or property, type
/// mismatch, bad argument, unsupported operation). The query layer never traps on bad input.
public struct QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: Hashable, Sendable {
        /// The text does not follow the grammar.
        case syntax
        /// A class name that is not in the schema.
        case unknownClass
        /// A property name that is not on the class.
        case unknownProperty
        /// The two sides of a comparison, or an operator and its operand, have incompatible types.
        case typeMismatch
        /// `$n` out of range, or an argument of the wrong shape.
        case argument
        /// A construct used where it is not allowed (e.g. `@sum` on a string, `ALL` on a to-one path).
        case unsupported
        /// The query was stopped through its `QueryCancellation` before it finished.
        case cancelled
    }

    /// What went wrong, broadly.
    public var kind: Kind
    /// The full, human-readable message (includes the position for syntax errors).
    public var message: String
    /// 1-based character position in the query text, for syntax errors.
    public var position: Int?

    /// An error of `kind` with a full message and, for syntax errors, the 1-based position.
    public init(kind: Kind, message: String, position: Int? = nil) {
        self.kind = kind
        self.message = message
        self.position = position
    }

    /// A syntax error at a 0-based character offset; the message reports it 1-based.
    static func syntax(at offset: Int, _ detail: String) -> QueryError {
        QueryError(kind: .syntax, message: "Invalid query at position \(offset + 1): \(detail)", position: offset + 1)
    }

    public var description: String { message }
}
