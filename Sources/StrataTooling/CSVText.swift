/// CSV fields as `strata export` writes them (RFC 4180).
package enum CSVText {
    /// A field, quoted when it holds a comma, quote, line break or outer spaces (or `force`).
    package static func quote(_ s: String, force: Bool) -> String {
        let needs = force || s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            || s.first == " " || s.last == " "
        return needs ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
}
