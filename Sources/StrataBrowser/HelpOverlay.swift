/// The `?` overlay: every key, in groups.
enum HelpOverlay {
    /// (keys, what they do); an empty description starts a group titled by the keys.
    static let entries: [(String, String)] = [
        ("Screens", ""),
        ("1-5 Tab S-Tab", "switch screen"),
        ("c", "compact (anywhere)"),
        ("?", "this help"),
        ("q  Ctrl-C", "quit"),
        ("Move", ""),
        ("↑↓←→ hjkl", "cursor"),
        ("g  G", "first / last row"),
        ("Ctrl-d Ctrl-u", "half page down / up"),
        ("PgDn PgUp", "page down / up"),
        ("Home End", "first / last column"),
        ("h at column 1", "class list"),
        ("Data", ""),
        ("Enter", "open link/list/object"),
        ("Backspace", "back along the path"),
        ("b", "who links here"),
        ("/", "filter (RQL query)"),
        ("s", "sort (again: reverse)"),
        ("e", "edit value"),
        ("a", "add object / item"),
        ("d", "delete object / item"),
        ("Prompts", ""),
        ("Enter  Esc", "accept / cancel"),
        ("←→ Ctrl-U", "move / clear"),
    ]

    static func lines(width: Int, theme: Theme) -> [StyledLine] {
        func line(_ entry: (String, String), width: Int) -> StyledLine {
            var line = StyledLine()
            if entry.1.isEmpty {
                line.add(entry.0, theme.title, width: width)
            } else {
                line.add(entry.0, theme.key, width: 14)
                line.add(" " + entry.1, theme.text, width: max(0, width - 14))
            }
            return line
        }
        guard width >= 70 else { return entries.map { line($0, width: width) } }
        // Two columns: split at the group boundary nearest the middle.
        let groupStarts = entries.indices.filter { entries[$0].1.isEmpty }
        let split = groupStarts.min { abs($0 - entries.count / 2) < abs($1 - entries.count / 2) } ?? entries.count / 2
        let columnWidth = (width - 2) / 2
        let left = entries[..<split].map { line($0, width: columnWidth) }
        let right = entries[split...].map { line($0, width: columnWidth) }
        return (0..<max(left.count, right.count)).map { index in
            var combined = index < left.count ? left[index] : StyledLine([.init(text: "", style: .plain, width: columnWidth)])
            combined.add("", width: 2)
            if index < right.count { combined.spans += right[index].spans }
            return combined
        }
    }
}
