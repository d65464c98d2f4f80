/// The `?` overlay: every key, in groups.
enum HelpOverlay {
    /// (keys, what they do); an empty description starts a group titled by the keys.
    /// From `Resources/keymap.json`.
    static var entries: [(String, String)] { KeyMap.standard.helpEntries }

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
        let entries = self.entries
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
