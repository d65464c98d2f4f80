/// Where the fixed parts of the frame go for a terminal size. Invariant: the status bar is
/// always the last row; the message/prompt line is above it when there are at least 2 rows;
/// the tab bar is shown only from 4 rows; the content gets what is left (possibly nothing).
struct ScreenLayout {
    let size: TerminalSize
    let tabBar: Rect?
    let content: Rect
    let messageLine: Rect?
    let statusBar: Rect?

    init(size: TerminalSize) {
        self.size = size
        let width = max(0, size.columns), height = max(0, size.rows)
        statusBar = height >= 1 ? Rect(x: 0, y: height - 1, width: width, height: 1) : nil
        messageLine = height >= 2 ? Rect(x: 0, y: height - 2, width: width, height: 1) : nil
        tabBar = height >= 4 ? Rect(x: 0, y: 0, width: width, height: 1) : nil
        let top = tabBar == nil ? 0 : 1
        content = Rect(x: 0, y: top, width: width, height: max(0, height - 2 - top))
    }
}

/// Where the parts of the Data screen go inside the content area.
struct DataLayout {
    /// Class list, or `nil` when the screen is too narrow to show it beside the table.
    let sidebar: Rect?
    /// Breadcrumb line above the table or detail view.
    let breadcrumb: Rect
    /// Table (frozen header + rows) or detail view.
    let body: Rect

    init(content: Rect, sidebarFocused: Bool) {
        let sidebarWidth = min(24, max(14, content.width / 5))
        let showSidebar = content.width >= 50 || sidebarFocused
        var main = content
        if showSidebar {
            let width = content.width >= 50 ? sidebarWidth : content.width
            sidebar = Rect(x: content.x, y: content.y, width: width, height: content.height)
            main = Rect(x: content.x + width + 1, y: content.y, width: content.width - width - 1, height: content.height)
        } else {
            sidebar = nil
        }
        breadcrumb = Rect(x: main.x, y: main.y, width: main.width, height: min(1, main.height))
        body = Rect(x: main.x, y: main.y + 1, width: main.width, height: main.height - 1)
    }

    /// Rows of data the table can show (the body minus its frozen header).
    var visibleTableRows: Int { max(1, body.height - 1) }
}
