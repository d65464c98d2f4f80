import Foundation
import StrataTooling

/// Assembling a frame: the screen's widgets from the app state, the message line, overlays.
extension BrowserApp {
    func renderScreen(into buffer: inout CellBuffer, rect: Rect, now: Date) {
        guard !rect.isEmpty else { return }
        switch screen {
        case .data: renderData(into: &buffer, rect: rect)
        case .versions:
            var report = versionsReport ?? dataSource.versions()
            // Read afresh on every frame: the lock is taken and released without a commit.
            report.writeLockHolder = dataSource.writeLockHolderNow()
            versionsReport = report
            let lines = VersionsScreenRenderer.lines(report, now: now, width: rect.width, theme: theme)
            var offset = scroll[.versions, default: 0]
            // Scrolled down to older commits (and not scrolled since): new commits at the top slid
            // them down under the reader. The bottom line shown (a commit, below the headers) is
            // found again and the view moves with it.
            if offset > 0, let anchor = versionsAnchor, anchor.scroll == offset,
               let index = lines.firstIndex(where: { $0.text == anchor.text }) {
                offset = max(0, offset + index - anchor.line)
            }
            offset = LinesRenderer.draw(lines, scroll: offset, into: &buffer, rect: rect)
            scroll[.versions] = offset
            let bottom = min(lines.count, offset + rect.height) - 1
            versionsAnchor = offset > 0 && bottom >= 0 ? (offset, bottom, lines[bottom].text) : nil
        case .space:
            let report = spaceReport ?? dataSource.space()
            spaceReport = report
            scroll[.space] = SpaceScreenRenderer.draw(report, scroll: scroll[.space, default: 0], theme: theme, into: &buffer, rect: rect)
        case .log:
            let lines = LogScreenRenderer.lines(log, width: rect.width, theme: theme)
            scroll[.log] = LinesRenderer.draw(lines, scroll: scroll[.log, default: 0], into: &buffer, rect: rect)
        case .compaction:
            let plan = compactionPlan ?? dataSource.compactionPlan()
            compactionPlan = plan
            let lines = CompactionScreenRenderer.lines(plan: plan, history: compactionHistory,
                                                       readOnly: dataSource.fileInfo.isReadOnly
                                                           ? dataSource.fileInfo.readOnlyReason ?? "The file was opened with --read-only." : nil,
                                                       width: rect.width, theme: theme)
            scroll[.compaction] = LinesRenderer.draw(lines, scroll: scroll[.compaction, default: 0], into: &buffer, rect: rect)
        }
    }

    private func renderData(into buffer: inout CellBuffer, rect: Rect) {
        let layout = DataLayout(content: rect, sidebarFocused: sidebarFocused)
        if let sidebar = layout.sidebar {
            DataScreenRenderer.sidebar(classes: classes, selected: selectedClass, focused: sidebarFocused, theme: theme,
                                       into: &buffer, rect: sidebar)
            if sidebar.width >= rect.width { return }  // narrow terminal: the class list takes the screen
        }
        guard !layout.body.isEmpty || !layout.breadcrumb.isEmpty else { return }
        loadVisibleRows()
        let crumbs = levels.map(\.crumb)
        switch levels.last {
        case .table(var table)?:
            table.leftColumn = TableRenderer.scrolledLeftColumn(
                columns: table.columns, cursorColumn: table.cursorColumn, leftColumn: table.leftColumn,
                width: layout.body.width - TableRenderer.gutterWidth(count: table.count.value))
            levels[levels.count - 1] = .table(table)
            var position = table.count.value == 0 ? "empty" : "\(Formatting.number(table.cursorRow + 1))/\(Formatting.count(table.count))"
            if let sort = table.sort { position = "\(sort.property) \(sort.ascending ? "▲" : "▼")  " + position }
            DataScreenRenderer.breadcrumb(crumbs, position: position, theme: theme, into: &buffer, rect: layout.breadcrumb)
            let visible = layout.visibleTableRows
            let rows = (0..<visible).compactMap { table.row(at: table.topRow + $0) }
            let emptyText: String
            switch table.source {
            case .objects: emptyText = table.filter == nil ? "no objects" : "no objects match the filter"
            case .collection: emptyText = "empty (a adds an item)"
            case .backlinks: emptyText = "nothing links here"
            }
            let model = TableModel(columns: table.columns, count: table.count, rows: rows, topRow: table.topRow,
                                   cursorRow: table.cursorRow, cursorColumn: table.cursorColumn, leftColumn: table.leftColumn,
                                   sort: table.sort, marked: Set(marks.keys), focused: !sidebarFocused, emptyText: emptyText)
            TableRenderer.draw(model, theme: theme, into: &buffer, rect: layout.body)
        case .detail(var detail)?:
            let count = detail.detail?.properties.count ?? 0
            let position = detail.deletedMessage != nil ? "deleted" : "\(detail.link.ref.className) · \(detail.cursor + 1)/\(count)"
            DataScreenRenderer.breadcrumb(crumbs, position: position, theme: theme, into: &buffer, rect: layout.breadcrumb)
            detail.top = DataScreenRenderer.detail(detail, marked: marks[detail.link.ref] != nil, theme: theme,
                                                   into: &buffer, rect: layout.body)
            levels[levels.count - 1] = .detail(detail)
        case nil:
            buffer.write("This file has no classes.", x: layout.body.x, y: layout.body.y, width: layout.body.width, style: theme.dim)
        }
    }

    func renderMessageLine(into buffer: inout CellBuffer, rect: Rect) {
        if let prompt {
            if let error = prompt.error, rect.y > 0 {
                buffer.write("✗ " + error, x: rect.x, y: rect.y - 1, width: rect.width, style: theme.error)
            }
            let labelWidth = min(DisplayWidth.of(prompt.label), rect.width / 2)
            buffer.write(prompt.label, x: rect.x, y: rect.y, width: labelWidth, style: theme.prompt)
            // Show the end of long input so the insertion point stays visible.
            let available = max(1, rect.width - labelWidth - 1)
            let characters = Array(prompt.text)
            let cursor = max(0, min(prompt.cursor, characters.count))
            var start = 0
            while start < cursor, DisplayWidth.of(String(characters[start..<cursor])) >= available { start += 1 }
            var shown = ""
            var width = 0
            for character in characters[start...] {
                let columns = DisplayWidth.of(character)
                if width + columns > available { break }
                shown.append(character)
                width += columns
            }
            buffer.write(shown, x: rect.x + labelWidth, y: rect.y, maxWidth: available, style: theme.text)
            let cursorX = rect.x + labelWidth + DisplayWidth.of(String(characters[start..<cursor]))
            buffer.cursor = (min(cursorX, rect.maxX - 1), rect.y)
            return
        }
        if let waiting = writeLockWaitLine(width: rect.width) {
            buffer.write(waiting, x: rect.x, y: rect.y, width: rect.width, style: theme.message)
            return
        }
        if let filterJob {
            let doing = filterJob.sort.map { "sorting \(filterJob.className) by \($0.property)" } ?? "filtering \(filterJob.className): \(filterJob.filter)"
            buffer.write("\(doing) …  Esc cancels", x: rect.x, y: rect.y, width: rect.width,
                         style: theme.message)
            return
        }
        if let message {
            buffer.write((message.isError ? "✗ " : "") + message.text, x: rect.x, y: rect.y, width: rect.width,
                         style: message.isError ? theme.error : theme.message)
            return
        }
        var hints = StyledLine()
        let pairs = KeyMap.standard.hints(for: screen)
        for (key, text) in pairs {
            hints.add(key, theme.key)
            hints.add(" \(text)  ", theme.dim)
        }
        hints.draw(into: &buffer, x: rect.x, y: rect.y, width: rect.width)
    }

    func renderOverlay(_ overlay: Overlay, into buffer: inout CellBuffer, now: Date) {
        let area = ScreenLayout(size: size).content
        let width = min(72, max(10, area.width - 4))
        switch overlay {
        case .help:
            let helpWidth = min(96, max(10, area.width - 4))
            ChromeRenderer.dialog(title: "Keys", lines: HelpOverlay.lines(width: helpWidth, theme: theme), width: helpWidth,
                                  theme: theme, into: &buffer, area: area)
        case .confirm(let question, _):
            var lines = ChromeRenderer.wrapped(question, width: min(width, 56))
            var keys = StyledLine()
            keys.add("y", theme.key); keys.add(" yes   ", theme.text)
            keys.add("n", theme.key); keys.add(" no", theme.text)
            lines += [.blank, keys]
            ChromeRenderer.dialog(title: "Confirm", lines: lines, width: min(width, 56), theme: theme, into: &buffer, area: area)
        case .compaction(let step):
            let dialogWidth = min(width, 60)
            let (title, lines) = CompactionScreenRenderer.dialog(step, fileName: dataSource.fileInfo.fileName,
                                                                 width: dialogWidth, theme: theme)
            ChromeRenderer.dialog(title: title, lines: lines, width: dialogWidth, theme: theme, into: &buffer, area: area)
        }
    }
}
