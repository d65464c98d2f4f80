import StrataTooling

/// What a table widget shows: plain values, no data source.
struct TableModel {
    var columns: [PropertyDescription]
    var count: RowCount
    /// The visible rows, from `topRow`; `nil` rows were not available.
    var rows: [ObjectRow]
    var topRow: Int
    var cursorRow: Int
    var cursorColumn: Int
    var leftColumn: Int
    var sort: SortSpec?
    /// Objects changed recently (their rows are marked).
    var marked: Set<ObjectRef>
    var focused: Bool
    var emptyText: String
}

/// Draws a table: marker and row-number gutter, frozen header, one column per property,
/// cursor cell, marked rows, horizontal scroll indicators.
enum TableRenderer {
    /// The column width for a property: wide enough for its name and a typical value.
    static func width(of property: PropertyDescription) -> Int {
        let typical: Int
        switch (property.kind, property.type) {
        case (.list, _), (.set, _), (.map, _), (.backlinks, _): typical = 11
        case (.embedded, _): typical = 18
        case (.link, _), (_, .object): typical = 16
        case (_, .bool): typical = 5
        case (_, .int): typical = 8
        case (_, .float), (_, .double), (_, .decimal128): typical = 10
        case (_, .string), (_, .mixed): typical = 18
        case (_, .data): typical = 16
        case (_, .date): typical = 19
        case (_, .objectId): typical = 24
        case (_, .uuid): typical = 13
        }
        return min(26, max(typical, DisplayWidth.of(property.name) + 2))
    }

    /// Width of the gutter: a change marker, the row number, a space.
    static func gutterWidth(count: Int) -> Int {
        max(3, String(max(1, count)).count) + 2
    }

    /// The first column to show so that `cursorColumn` is visible in `width` columns, starting
    /// from `leftColumn` (the scroll position only moves when needed).
    static func scrolledLeftColumn(columns: [PropertyDescription], cursorColumn: Int, leftColumn: Int, width: Int) -> Int {
        guard !columns.isEmpty else { return 0 }
        var left = max(0, min(leftColumn, cursorColumn))
        while left < cursorColumn {
            let used = columns[left...cursorColumn].reduce(0) { $0 + Self.width(of: $1) + 1 }
            if used <= width { break }
            left += 1
        }
        return left
    }

    static func draw(_ model: TableModel, theme: Theme, into buffer: inout CellBuffer, rect: Rect) {
        guard rect.height > 0, rect.width > 0 else { return }
        let gutter = min(rect.width, gutterWidth(count: model.count.value))
        // Header (frozen: drawn whatever the vertical scroll).
        buffer.write("#", x: rect.x, y: rect.y, width: gutter - 1, style: theme.header, alignment: .right)
        var x = rect.x + gutter
        var visibleColumns: [(index: Int, x: Int, width: Int)] = []
        var index = model.leftColumn
        while index < model.columns.count, x < rect.maxX {
            let width = min(Self.width(of: model.columns[index]), rect.maxX - x)
            visibleColumns.append((index, x, width))
            x += width + 1
            index += 1
        }
        let moreRight = index < model.columns.count || x - 1 > rect.maxX
        for column in visibleColumns {
            let property = model.columns[column.index]
            var name = property.name
            if model.sort?.property == property.name { name += model.sort!.ascending ? " ▲" : " ▼" }
            let isNumeric = [.int, .double, .float, .decimal128].contains(property.type) && property.kind == .value
            buffer.write(name, x: column.x, y: rect.y, width: column.width, style: theme.header,
                         alignment: isNumeric ? .right : .left)
            if column.x + column.width < rect.maxX { buffer.write("│", x: column.x + column.width, y: rect.y, style: theme.dim) }
        }
        if model.leftColumn > 0 { buffer.write("◀", x: rect.x, y: rect.y, style: theme.header) }
        if moreRight { buffer.write("▶", x: rect.maxX - 1, y: rect.y, style: theme.header) }

        guard model.count.value > 0 else {
            if rect.height > 1 { buffer.write(model.emptyText, x: rect.x + gutter, y: rect.y + 1, width: rect.width - gutter, style: theme.dim) }
            return
        }
        for line in 0..<(rect.height - 1) {
            let position = model.topRow + line
            guard position < model.count.value else { break }
            let y = rect.y + 1 + line
            let row = line < model.rows.count ? model.rows[line] : nil
            let isCursorRow = position == model.cursorRow
            let isMarked = row?.ref.map { model.marked.contains($0) } ?? false
            let numberStyle = isCursorRow && model.focused ? theme.cursorRowNumber : isMarked ? theme.marked : theme.rowNumber
            buffer.write(isMarked ? "•" : " ", x: rect.x, y: y, style: isMarked ? theme.marked : theme.rowNumber)
            buffer.write(String(position + 1), x: rect.x + 1, y: y, width: gutter - 2, style: numberStyle, alignment: .right)
            for column in visibleColumns {
                let value = row.flatMap { $0.values.indices.contains(column.index) ? $0.values[column.index] : nil }
                let formatted = value?.formatted ?? FormattedValue(text: "…", role: .null, alignment: .left)
                var style = theme.style(for: formatted.role)
                if isMarked { style = style.merged(with: theme.marked) }
                if isCursorRow, column.index == model.cursorColumn, model.focused { style = theme.cursorCell }
                buffer.write(formatted.text, x: column.x, y: y, width: column.width, style: style, alignment: formatted.alignment)
                if column.x + column.width < rect.maxX { buffer.write("│", x: column.x + column.width, y: y, style: theme.dim) }
            }
        }
    }
}
