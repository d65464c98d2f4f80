import StrataTooling

/// The Data screen's other widgets: the class sidebar, the breadcrumb and the detail view.
enum DataScreenRenderer {
    static func sidebar(classes: [ClassSummary], selected: Int, focused: Bool, theme: Theme,
                        into buffer: inout CellBuffer, rect: Rect) {
        guard rect.height > 0 else { return }
        buffer.write("Classes", x: rect.x, y: rect.y, width: rect.width, style: theme.title)
        let listHeight = rect.height - 1 - (rect.height > 4 ? 1 : 0)
        let top = max(0, min(selected - listHeight + 1, classes.count - listHeight))
        for line in 0..<max(0, listHeight) {
            let index = top + line
            guard index < classes.count else { break }
            let summary = classes[index]
            let count = Formatting.compactCount(summary.count)
            let name = (summary.isEmbedded ? "◇" : " ") + summary.name
            let style = index == selected ? (focused ? theme.sidebarSelected : theme.sidebarSelectedUnfocused) : theme.text
            let nameWidth = max(1, rect.width - DisplayWidth.of(count) - 1)
            let y = rect.y + 1 + line
            buffer.write(name, x: rect.x, y: y, width: nameWidth, style: style)
            buffer.write(" " + count, x: rect.x + nameWidth, y: y, width: rect.width - nameWidth,
                         style: index == selected ? style : theme.number, alignment: .right)
        }
        if rect.height > 4, classes.contains(where: \.isEmbedded) {
            buffer.write("◇ embedded", x: rect.x, y: rect.maxY - 1, width: rect.width, style: theme.dim)
        }
        // Separator between sidebar and the table.
        if rect.maxX < buffer.width {
            for y in rect.y..<rect.maxY { buffer.write("│", x: rect.maxX, y: y, style: theme.dim) }
        }
    }

    /// `Person › 12 Alice › dogs` on the left (keeping the end when too long), position on the right.
    static func breadcrumb(_ crumbs: [String], position: String, theme: Theme, into buffer: inout CellBuffer, rect: Rect) {
        guard rect.height > 0, rect.width > 0 else { return }
        let positionWidth = min(DisplayWidth.of(position), rect.width / 3)
        let pathWidth = rect.width - positionWidth - (positionWidth > 0 ? 1 : 0)
        var path = crumbs.joined(separator: " › ")
        while DisplayWidth.of(path) > pathWidth, path.count > 1 {
            path = "…" + path.dropFirst(2)
        }
        buffer.write(path, x: rect.x, y: rect.y, width: pathWidth, style: theme.title)
        if positionWidth > 0 {
            buffer.write(position, x: rect.maxX - positionWidth, y: rect.y, width: positionWidth, style: theme.dim, alignment: .right)
        }
    }

    /// One line per property: name, value, type; the cursor line highlighted.
    static func detail(_ state: DetailState, marked: Bool, theme: Theme, into buffer: inout CellBuffer, rect: Rect) -> Int {
        guard rect.height > 0 else { return state.top }
        if let problem = state.deletedMessage {
            for (offset, line) in TextLayout.wrap(problem, width: rect.width).prefix(rect.height).enumerated() {
                buffer.write(line, x: rect.x, y: rect.y + offset, style: theme.error)
            }
            return state.top
        }
        guard let detail = state.detail else { return state.top }
        let nameWidth = min(max(8, detail.properties.map { DisplayWidth.of($0.name) }.max() ?? 8), max(4, rect.width / 3))
        let typeWidth = rect.width >= 70 ? min(22, detail.properties.map { DisplayWidth.of($0.typeDescription) }.max() ?? 0) : 0
        let valueWidth = max(1, rect.width - nameWidth - 3 - (typeWidth > 0 ? typeWidth + 3 : 0))
        var top = min(state.top, state.cursor)
        if state.cursor >= top + rect.height { top = state.cursor - rect.height + 1 }
        for line in 0..<rect.height {
            let index = top + line
            guard index < detail.properties.count else { break }
            let property = detail.properties[index]
            let y = rect.y + line
            let isCursor = index == state.cursor
            var nameStyle = property.isPrimaryKey ? theme.header : theme.text
            if isCursor { nameStyle = theme.cursorCell }
            buffer.write(property.name, x: rect.x, y: y, width: nameWidth, style: nameStyle)
            buffer.write(" │ ", x: rect.x + nameWidth, y: y, style: theme.dim)
            let formatted = detail.values[index].formatted
            var valueStyle = theme.style(for: formatted.role)
            if marked { valueStyle = valueStyle.merged(with: theme.marked) }
            buffer.write(formatted.text, x: rect.x + nameWidth + 3, y: y, width: valueWidth, style: valueStyle)
            if typeWidth > 0 {
                var type = property.typeDescription
                if property.isPrimaryKey { type += " pk" } else if property.isIndexed { type += " idx" }
                buffer.write(" │ ", x: rect.x + nameWidth + 3 + valueWidth, y: y, style: theme.dim)
                buffer.write(type, x: rect.maxX - typeWidth, y: y, width: typeWidth, style: theme.dim)
            }
        }
        return top
    }
}
